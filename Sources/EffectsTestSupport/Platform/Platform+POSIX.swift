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

  /// Whether `address` lies in an image the process has loaded (its code or its data): what a
  /// function pointer read from the runtime's private structures must hold before it is trusted.
  static func isInLoadedImage(_ address: UInt) -> Bool {
    guard let pointer = UnsafeRawPointer(bitPattern: address), let dladdr = addressInfo else { return false }
    // `Dl_info`: the image's path and base, the nearest symbol's name and address.
    var info: (UnsafeRawPointer?, UnsafeRawPointer?, UnsafeRawPointer?, UnsafeRawPointer?) = (nil, nil, nil, nil)
    return withUnsafeMutableBytes(of: &info) { dladdr(pointer, $0.baseAddress) } != 0 && info.1 != nil
  }

  private typealias AddressInfo = @convention(c) (UnsafeRawPointer?, UnsafeMutableRawPointer?) -> Int32

  /// The C library's `dladdr`, looked up once (glibc declares it only for `_GNU_SOURCE`).
  private static let addressInfo: AddressInfo? = symbol(named: "dladdr").map {
    unsafeBitCast($0, to: AddressInfo.self)
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
