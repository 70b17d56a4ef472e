#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// What Linux and Darwin do alike, through POSIX: the one place the engine's files reach the C
// library, so that none of them needs an import that differs by OS.
extension Platform {
  /// The address of `name`, a symbol exported by the running process or a library it loaded (the
  /// concurrency runtime's hooks and functions, say); nil when none exports it. A Swift mangled
  /// name is written as the runtime exports it (`$ss18SchedulingExecutorMp`).
  static func symbol(named name: String) -> UnsafeMutableRawPointer? {
    dlsym(dlopen(nil, RTLD_NOW), name)
  }

  /// A pointer each thread has its own value of (`pthread_key_t`): nil on a thread until it sets one.
  /// Made once and kept for the process (its key is never deleted).
  struct ThreadSpecific: Sendable {
    // A key is an integer the C library hands out once; threads only read it.
    private let key: pthread_key_t

    init() {
      var key = pthread_key_t()
      pthread_key_create(&key, nil)
      self.key = key
    }

    /// This thread's value.
    var value: UnsafeMutableRawPointer? {
      pthread_getspecific(key)
    }

    /// Sets this thread's value.
    func set(_ value: UnsafeMutableRawPointer?) {
      pthread_setspecific(key, value)
    }
  }
}
