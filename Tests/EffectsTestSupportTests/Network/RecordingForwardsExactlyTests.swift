import Effects
import EffectsTestSupport
import Foundation
import Testing

/// `recording(into:)` wraps each co-effect in a decorator that logs, then hands the call on. A
/// decorator must be invisible to the code under test: the base sees exactly the arguments given,
/// the caller gets exactly the base's result or error, and a `nonisolated(nonsending)` requirement
/// keeps the caller's isolation. One test per decorator, against a base that records what reached
/// it.
@Suite struct RecordingForwardsExactlyTests {
  private struct Boom: Error, Equatable {}

  /// The environment's co-effects, each a base that remembers what reached it.
  private final class Bases: Sendable {
    let received = Locked<[String]>([])

    func note(_ entry: String) {
      received.withLock { $0.append(entry) }
    }
  }

  private struct BaseClock: WallClock {
    let bases: Bases
    var now: Date {
      bases.note("now")
      return Date(timeIntervalSince1970: 42)
    }
  }

  private struct BaseBundle: ResourceBundle {
    let bases: Bases
    func path(forResource name: String?, ofType ext: String?) -> String? {
      bases.note("path(\(name ?? "nil"), \(ext.map { "\"\($0)\"" } ?? "nil"))")
      return "/answer/\(name ?? "nil")"
    }
  }

  private struct BaseFileReader: FileReader {
    let bases: Bases
    func contents(atPath path: String) throws -> Data {
      bases.note("contents(\(path))")
      if path == "/boom" { throw Boom() }
      return Data(path.utf8)
    }
  }

  private struct BaseDefaults: DefaultsStore {
    let bases: Bases
    func value(for key: String) -> DefaultsValue? {
      bases.note("value(\(key))")
      return .string("stored \(key)")
    }
    func set(_ value: DefaultsValue?, for key: String) {
      bases.note("set(\(value.map { "\($0)" } ?? "nil"), \(key))")
    }
  }

  private struct BaseScheduler: WorkScheduler {
    let bases: Bases
    let isolation = Locked<[String]>([])
    var now: Date { Date(timeIntervalSince1970: 7) }
    func schedule(
      after delay: Duration,
      at callSite: CallSite,
      _ action: @escaping @Sendable () -> Void
    ) -> ScheduledWork {
      bases.note("schedule(\(delay), line \(callSite.line))")
      action()
      return ScheduledWork {}
    }
    func schedule(
      after delay: Duration,
      every interval: Duration,
      at callSite: CallSite,
      _ action: @escaping @Sendable () -> Void
    ) -> ScheduledWork {
      bases.note("schedule(\(delay), every \(interval), line \(callSite.line))")
      return ScheduledWork {}
    }
    nonisolated(nonsending) func sleep(for duration: Duration, at callSite: CallSite) async throws {
      bases.note("sleep(\(duration)) on \(#isolation.map { "\(type(of: $0))" } ?? "no actor")")
      if duration == .seconds(13) { throw Boom() }
    }
  }

  private func recorded(_ bases: Bases) -> Environment {
    var environment = Environment.test()
    environment.clock = BaseClock(bases: bases)
    environment.bundle = BaseBundle(bases: bases)
    environment.fileReader = BaseFileReader(bases: bases)
    environment.defaults = BaseDefaults(bases: bases)
    environment.scheduler = BaseScheduler(bases: bases)
    return environment.recording(into: CallLog())
  }

  @Test func theClockAnswersTheBasesTime() {
    let bases = Bases()
    #expect(recorded(bases).clock.now == Date(timeIntervalSince1970: 42))
    #expect(bases.received.snapshot == ["now"])
  }

  @Test func theBundleIsAskedWithTheArgumentsAsGiven() {
    let bases = Bases()
    let bundle = recorded(bases).bundle
    #expect(bundle.path(forResource: "number", ofType: ".txt") == "/answer/number")
    #expect(bundle.path(forResource: "number", ofType: "") == "/answer/number")
    #expect(bundle.path(forResource: nil, ofType: "txt") == "/answer/nil")
    #expect(bundle.path(forResource: "number", ofType: nil) == "/answer/number")
    #expect(
      bases.received.snapshot == [
        #"path(number, ".txt")"#, #"path(number, "")"#, #"path(nil, "txt")"#, "path(number, nil)",
      ]
    )
  }

  @Test func theFileReaderAnswersTheBasesBytesAndRethrowsItsError() throws {
    let bases = Bases()
    let reader = recorded(bases).fileReader
    #expect(try reader.contents(atPath: "/a//b/") == Data("/a//b/".utf8))
    #expect(throws: Boom()) { try reader.contents(atPath: "/boom") }
    #expect(bases.received.snapshot == ["contents(/a//b/)", "contents(/boom)"])
  }

  @Test func theDefaultsAnswerTheBasesValueAndWritesReachItUnchanged() {
    let bases = Bases()
    let defaults = recorded(bases).defaults
    #expect(defaults.value(for: "theme") == .string("stored theme"))
    defaults.set(.int(3), for: "size")
    defaults.set(nil, for: "size")
    #expect(bases.received.snapshot == ["value(theme)", "set(3, size)", "set(nil, size)"])
  }

  @Test func theSchedulerHandsOnWorkWithItsCallSite() {
    let bases = Bases()
    let scheduler = recorded(bases).scheduler
    let ran = Locked(false)
    let line = #line + 1
    scheduler.schedule(after: .milliseconds(300)) { ran.withLock { $0 = true } }
    scheduler.schedule(after: .zero, every: .seconds(5)) {}
    #expect(ran.snapshot)
    #expect(
      bases.received.snapshot == [
        "schedule(0.3 seconds, line \(line))", "schedule(0.0 seconds, every 5.0 seconds, line \(line + 1))",
      ]
    )
  }

  /// Before, the recorder's `sleep` was a plain `async` method: a `@MainActor` caller's sleep left
  /// the main actor for the global executor on its way to the base.
  @MainActor @Test func aSleepKeepsTheCallersIsolationAndRethrows() async throws {
    let bases = Bases()
    let scheduler = recorded(bases).scheduler
    try await scheduler.sleep(for: .seconds(1))
    await #expect(throws: Boom()) { try await scheduler.sleep(for: .seconds(13)) }
    #expect(bases.received.snapshot == ["sleep(1.0 seconds) on MainActor", "sleep(13.0 seconds) on MainActor"])
  }
}
