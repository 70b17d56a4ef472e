import EffectsTestSupport
import Foundation
import Testing

@testable import Effects

struct InterpreterLiveTests {
  /// An effect that fails: a write beneath a file (`/old.txt` is a file, not a directory).
  static let failing = Effect.writeFile(path: "/old.txt/inside.txt", contents: Data("x".utf8))

  /// Every target of the live interpreter, in memory, installed in the environment it is given.
  struct World {
    let console = LineConsole()
    let files = InMemoryFileSystem(["/old.txt": "old"])
    let defaults = InMemoryDefaults(["stale": true])
    let events = EventRecorder()
    let scheduler: any WorkScheduler
    let failures = Locked<[InterpreterError<Effect>]>([])

    init(scheduler: any WorkScheduler = InlineScheduler()) {
      self.scheduler = scheduler
    }

    var environment: Environment {
      var environment = Environment.test()
      environment.console = console
      environment.fileWriter = files
      environment.defaults = defaults
      environment.events = events
      environment.scheduler = scheduler
      return environment
    }

    var interpreter: Interpreter<Effect> {
      let failures = self.failures
      return .live(environment: environment, onFailure: { failure in failures.withLock { $0.append(failure) } })
    }
  }

  @Test func printWritesTheLineToTheConsole() throws {
    let world = World()
    try world.interpreter.perform([.print("Computed: 15129"), .print("Done")])
    #expect(world.console.lines == ["Computed: 15129", "Done"])
  }

  @Test func writeFileReplacesTheFileWithTheContents() throws {
    let world = World()
    try world.interpreter.perform([
      .writeFile(path: "/old.txt", contents: Data("new".utf8)),
      .writeFile(path: "/notes/today.txt", contents: Data("hi".utf8)),
    ])
    #expect(world.files.files == ["/old.txt": Data("new".utf8), "/notes/today.txt": Data("hi".utf8)])
  }

  @Test func removeFileRemovesTheFile() throws {
    let world = World()
    try world.interpreter.perform([.removeFile(path: "/old.txt")])
    #expect(world.files.files.isEmpty)
  }

  @Test func removingAFileThatIsNotThereSucceedsAndTheBatchGoesOn() throws {
    let world = World()
    try world.interpreter.perform([.removeFile(path: "/missing.txt"), .print("went on")])
    #expect(world.console.lines == ["went on"])
    #expect(world.files.files == ["/old.txt": Data("old".utf8)])
  }

  @Test func setDefaultStoresTheValueInTheEnvironmentsDefaults() throws {
    let world = World()
    try world.interpreter.perform([.setDefault("dark", for: "theme"), .setDefault(14, for: "size")])
    #expect(world.defaults.values == ["stale": true, "theme": "dark", "size": 14])
  }

  @Test func removeDefaultRemovesTheKey() throws {
    let world = World()
    try world.interpreter.perform([.removeDefault(for: "stale"), .removeDefault(for: "never-set")])
    #expect(world.defaults.values.isEmpty)
  }

  @Test func trackLogsTheEventWithItsProperties() throws {
    let world = World()
    try world.interpreter.perform([
      .track(event: "visited", properties: ["screen": "menu"]),
      .track(event: "ordered", properties: [:]),
    ])
    #expect(
      world.events.events == [
        EventRecorder.Event(name: "visited", properties: ["screen": "menu"]),
        EventRecorder.Event(name: "ordered", properties: [:]),
      ]
    )
  }

  @Test func trackWithoutEventLoggingFailsAndNamesWhatToConfigure() throws {
    let console = LineConsole()
    var environment = Environment.live
    environment.console = console
    let error = try #require(throws: InterpreterError<Effect>.self) {
      try Interpreter.live(environment: environment).perform([
        .track(event: "visited", properties: [:]), .print("after"),
      ])
    }
    #expect(error.index == 0)
    #expect(error.notPerformed == [.print("after")])
    #expect(
      "\(error.underlying)"
        == #"no EventLog is configured, so the event "visited" cannot be logged; "#
        + "set environment.events (for example at launch, before Environment.bootstrap(_:))"
    )
    #expect(console.lines.isEmpty)
  }

  @Test func afterPerformsTheEffectsAtOnceOnAnInlineScheduler() throws {
    let world = World()
    try world.interpreter.perform([.after(.seconds(3), [.print("later"), .setDefault(true, for: "seen")])])
    #expect(world.console.lines == ["later"])
    #expect(world.defaults.values["seen"] == true)
  }

  @Test func afterHoldsTheEffectsUntilTheSchedulerRunsTheirWork() throws {
    let scheduler = HoldingScheduler()
    let world = World(scheduler: scheduler)

    try world.interpreter.perform([
      .print("now"),
      .after(.milliseconds(300), [.print("later"), .writeFile(path: "/later.txt", contents: Data("x".utf8))]),
    ])

    #expect(world.console.lines == ["now"])
    #expect(world.files.files["/later.txt"] == nil)
    #expect(scheduler.heldDelays == [.milliseconds(300)])

    scheduler.runHeldWork()

    #expect(world.console.lines == ["now", "later"])
    #expect(world.files.files["/later.txt"] == Data("x".utf8))
    #expect(world.failures.snapshot.isEmpty)
  }

  @Test func nestedAfterEffectsAreScheduledWhenTheOuterWorkRuns() throws {
    let scheduler = HoldingScheduler()
    let world = World(scheduler: scheduler)

    try world.interpreter.perform([.after(.seconds(1), [.after(.seconds(2), [.print("last")])])])
    #expect(scheduler.heldDelays == [.seconds(1)])

    scheduler.runHeldWork()
    #expect(scheduler.heldDelays == [.seconds(2)])
    #expect(world.console.lines.isEmpty)

    scheduler.runHeldWork()
    #expect(world.console.lines == ["last"])
  }

  @Test func aFailureOfWorkDoneLaterReachesOnFailureWithWhatWasNotPerformed() throws {
    let scheduler = HoldingScheduler()
    let world = World(scheduler: scheduler)

    try world.interpreter.perform([
      .after(.seconds(1), [.print("one"), Self.failing, .print("three")])
    ])
    #expect(world.failures.snapshot.isEmpty)

    scheduler.runHeldWork()

    let failure = try #require(world.failures.snapshot.first)
    #expect(world.failures.snapshot.count == 1)
    #expect(failure.index == 1)
    #expect(failure.effect == Self.failing)
    #expect((failure.underlying as? CocoaError)?.code == .fileWriteUnknown)
    #expect(failure.notPerformed == [.print("three")])
    #expect(world.console.lines == ["one"])
  }

  @Test func aFailureOfWorkDoneLaterIsNotThrownEvenWhenTheSchedulerRunsItAtOnce() throws {
    let world = World()
    try world.interpreter.perform([.after(.zero, [Self.failing]), .print("went on")])
    #expect(world.failures.snapshot.map(\.effect) == [Self.failing])
    #expect(world.console.lines == ["went on"])
  }

  @Test func aBatchWhoseThirdEffectFailsPerformsTwoAndListsExactlyTheRest() throws {
    let world = World()
    let error = try #require(throws: InterpreterError<Effect>.self) {
      try world.interpreter.perform([
        .print("one"),
        .setDefault(2, for: "two"),
        Self.failing,
        .print("four"),
        .track(event: "five", properties: [:]),
      ])
    }
    #expect(world.console.lines == ["one"])
    #expect(world.defaults.values["two"] == 2)
    #expect(world.events.events.isEmpty)
    #expect(error.index == 2)
    #expect(error.effect == Self.failing)
    #expect((error.underlying as? CocoaError)?.code == .fileWriteUnknown)
    #expect(error.notPerformed == [.print("four"), .track(event: "five", properties: [:])])
  }

  @Test func onATestEnvironmentEveryEffectStaysInMemoryAndReadsBack() throws {
    let scheduler = TestScheduler()
    let environment = Environment.test(scheduler: scheduler)
    try Interpreter.live(environment: environment).perform([
      .writeFile(path: "/notes/today.txt", contents: Data("hi".utf8)),
      .print("saved"),
      .track(event: "saved", properties: ["length": "2"]),
      .setDefault("dark", for: "theme"),
      .after(.seconds(3), [.print("later"), .removeFile(path: "/notes/today.txt")]),
    ])

    #expect(try environment.fileReader.string(atPath: "/notes/today.txt") == "hi")
    #expect(environment.printedLines == ["saved"])
    #expect(environment.trackedEvents == [.init(name: "saved", properties: ["length": "2"])])
    #expect(environment.defaults.value(for: "theme") == "dark")

    scheduler.advanceSynchronously(by: .seconds(3))
    #expect(environment.printedLines == ["saved", "later"])
    #expect(throws: CocoaError.self) { try environment.fileReader.contents(atPath: "/notes/today.txt") }
    scheduler.assertNoPendingWork()
  }

  @Test func everyTargetComesFromTheEnvironmentGiven() throws {
    let world = World()
    let other = World()
    // Another environment is current: the one given must win for every target.
    try withEnvironment(other.environment) {
      try Interpreter.live(environment: world.environment).perform([
        .print("p"), .writeFile(path: "/w.txt", contents: Data()), .track(event: "t", properties: [:]),
        .setDefault(true, for: "d"),
      ])
    }
    #expect(world.console.lines == ["p"])
    #expect(world.files.files["/w.txt"] == Data())
    #expect(world.events.events.map(\.name) == ["t"])
    #expect(world.defaults.values["d"] == true)
    #expect(other.console.lines.isEmpty)
    #expect(other.events.events.isEmpty)
    #expect(other.files.files == ["/old.txt": Data("old".utf8)])
    #expect(other.defaults.values == ["stale": true])
  }

  @Test func theTargetsComeFromTheCurrentEnvironmentByDefault() throws {
    let console = LineConsole()
    try withEnvironment({ $0.console = console }) {
      try Interpreter.live.perform([.print("from the scope")])
    }
    #expect(console.lines == ["from the scope"])
  }

  /// An interpreter kept from early on (a stored property of the app) reads the environment of
  /// each perform, so it neither fixes the root before the app bootstraps nor misses an override.
  @Test func anInterpreterMadeEarlyActsOnTheEnvironmentOfEachPerform() throws {
    let interpreter = Interpreter.live
    let first = Environment.test()
    let second = Environment.test()
    try withEnvironment(first) { try interpreter.perform([.print("one")]) }
    try withEnvironment(second) { try interpreter.perform([.print("two")]) }
    #expect(first.printedLines == ["one"])
    #expect(second.printedLines == ["two"])
  }

  @Test func theDefaultsComeFromTheCurrentEnvironmentByDefault() throws {
    let defaults = InMemoryDefaults()
    try withEnvironment(
      { $0.defaults = defaults },
      operation: { try Interpreter.live.perform([.setDefault("dark", for: "theme")]) }
    )
    #expect(defaults.values == ["theme": "dark"])
  }

  @Test func theLiveInterpreterReadsLikeTheLiveEnvironment() throws {
    let environment = Environment.test()
    let square = try withEnvironment(environment) {
      try Interpreter.live.perform(Outcome(value: 15129, effects: [.print("Computed: 15129")]))
    }
    #expect(square == 15129)
    #expect(environment.printedLines == ["Computed: 15129"])
  }

  @Test func theConfiguredFormWithoutAnEnvironmentActsOnTheCurrentOneAndKeepsItsFailureHandler() throws {
    let world = World()
    let failures = Locked<[InterpreterError<Effect>]>([])
    let interpreter = Interpreter.live(onFailure: { failure in failures.withLock { $0.append(failure) } })
    try withEnvironment(world.environment) {
      try interpreter.perform([.print("now"), .after(.zero, [Self.failing])])
    }
    #expect(world.console.lines == ["now"])
    #expect(failures.snapshot.map(\.effect) == [Self.failing])
  }

  @Test func theDefaultFailureHandlerWritesOneReadableReport() {
    let failure = InterpreterError<Effect>(
      index: 0,
      effect: .removeFile(path: "/missing.txt"),
      underlying: CocoaError(.fileNoSuchFile),
      notPerformed: [.print("done")]
    )
    let line = failureLine(failure)
    #expect(
      line.hasPrefix(
        "swift-effects: an effect performed later (by .after or .send) failed; effect at index 0 of 2 failed"
      )
    )
    #expect(line.contains(#"removeFile(path: "/missing.txt")"#))
    #expect(line.contains(#"not performed (1): print("done")"#))
  }
}

/// One file system for reading and writing, set in one step.
@Suite struct UseFileSystemTests {
  @Test func whatEffectsWriteReadsBackThroughTheSameFileSystem() throws {
    var environment = Environment.test()
    let files = InMemoryFileSystem(["/notes/draft.txt": "hello"])
    environment.useFileSystem(files)
    try Interpreter.live(environment: environment).perform([
      .writeFile(path: "/notes/today.txt", contents: Data("hi".utf8))
    ])
    #expect(try environment.fileReader.string(atPath: "/notes/today.txt") == "hi")
    #expect(try environment.fileReader.string(atPath: "/notes/draft.txt") == "hello")
    #expect(files.files.count == 2)
  }

  @Test func settingOnlyTheReaderLeavesTheWriterAsItWas() throws {
    var environment = Environment.test()
    environment.fileReader = InMemoryFileSystem(["/notes/draft.txt": "hello"])
    try Interpreter.live(environment: environment).perform([
      .writeFile(path: "/notes/today.txt", contents: Data("hi".utf8))
    ])
    #expect(throws: CocoaError.self) { try environment.fileReader.contents(atPath: "/notes/today.txt") }
  }

  @Test func anUnimplementedEnvironmentWithAFileSystemReportsNeitherField() throws {
    var environment = Environment.unimplemented()
    environment.useFileSystem(InMemoryFileSystem())
    try Interpreter.live(environment: environment).perform([.writeFile(path: "/a.txt", contents: Data())])
    #expect(try environment.fileReader.contents(atPath: "/a.txt") == Data())
  }
}
