public import Foundation

/// Everything code reads from the world — its co-effects — and everything effects act on, in one
/// value.
///
/// App code reads the clock, the bundle, files, defaults and the scheduler through an
/// `Environment` instead of reaching for `Date()`, `Bundle.main` or `UserDefaults.standard`. The
/// live ``Interpreter`` performs effects on the same environment: the files it writes, the console
/// it prints to and the analytics it tracks are the environment's ``fileWriter``, ``console`` and
/// ``events``. Production uses ``live``; a test passes an environment whose every input and output
/// it controls, in memory.
///
/// ```swift
/// // Before: hidden inputs, impossible to test without a real bundle and disk.
/// func compute(file: String) -> Int {
///   let value = Bundle.main.path(forResource: file, ofType: nil)
///     .flatMap { try? String(contentsOfFile: $0, encoding: .utf8) }
///     .flatMap { Int($0) } ?? 0
///   return value * value
/// }
///
/// // After: the same decision, reading the world through the environment.
/// func compute(file: String, environment: Environment = .current) -> Int {
///   let value = environment.bundle.path(forResource: file, ofType: nil)
///     .flatMap { try? environment.fileReader.string(atPath: $0) }
///     .flatMap { Int($0) } ?? 0
///   return value * value
/// }
/// ```
///
/// Reach it by passing it explicitly, or read ``current``, which `withEnvironment(_:operation:)`
/// overrides for one scope (a test, a request) without leaking into others.
///
/// App-defined co-effects are added through a ``CoeffectKey`` and a property in an extension.
///
/// `Environment` is a value: copies are independent, and changing a field of a copy never changes
/// the original. It is cheap to copy (one reference) and cheap to read.
///
/// In a SwiftUI file, `Environment` is also the name of SwiftUI's property wrapper. Import the
/// wrapper by name next to this module and both resolve:
///
/// ```swift
/// import Effects
/// import struct SwiftUI.Environment
/// ```
public struct Environment: Sendable {
  private var storage: Storage

  /// Creates an environment from every co-effect and every target of effects. Most code starts
  /// from ``live`` or a test environment and changes a field or two instead.
  ///
  /// - Parameters:
  ///   - clock: the current time.
  ///   - bundle: where bundled resources are.
  ///   - fileReader: how files are read.
  ///   - fileWriter: what `.writeFile` and `.removeFile` change.
  ///   - defaults: settings.
  ///   - scheduler: where work runs later.
  ///   - console: where `.print` writes.
  ///   - events: where `.track` logs; `nil` (the default) makes `.track` fail, naming
  ///     ``events``, instead of dropping the event.
  ///   - calendar: the calendar dates are computed in.
  ///   - locale: the locale text is formatted in.
  ///   - timeZone: the time zone dates are shown in.
  public init(
    clock: any WallClock,
    bundle: any ResourceBundle,
    fileReader: any FileReader,
    fileWriter: any FileWriter,
    defaults: any DefaultsStore,
    scheduler: any Scheduling,
    console: any Console,
    events: (any EventLogging)? = nil,
    calendar: Calendar,
    locale: Locale,
    timeZone: TimeZone
  ) {
    storage = Storage(
      Fields(
        clock: clock,
        bundle: bundle,
        fileReader: fileReader,
        fileWriter: fileWriter,
        defaults: defaults,
        scheduler: scheduler,
        console: console,
        events: events ?? UnconfiguredEvents(),
        calendar: calendar,
        locale: locale,
        timeZone: timeZone
      )
    )
  }

  /// The current time. Live: ``SystemClock``.
  public var clock: any WallClock {
    get {
      storage.check(.clock)
      return storage.fields.clock
    }
    set { update(.clock) { $0.clock = newValue } }
  }

  /// Where bundled resources are. Live: `Bundle.main`.
  public var bundle: any ResourceBundle {
    get {
      storage.check(.bundle)
      return storage.fields.bundle
    }
    set { update(.bundle) { $0.bundle = newValue } }
  }

  /// How files are read. Live: ``DiskFileSystem``.
  ///
  /// Setting it leaves ``fileWriter`` as it was. When the code under test both reads files and
  /// writes them through effects, give both one file system with ``useFileSystem(_:)``, so what it
  /// writes reads back.
  public var fileReader: any FileReader {
    get {
      storage.check(.fileReader)
      return storage.fields.fileReader
    }
    set { update(.fileReader) { $0.fileReader = newValue } }
  }

  /// What `.writeFile` and `.removeFile` change. Live: ``DiskFileSystem``; in a test
  /// environment, the same ``InMemoryFileSystem`` as ``fileReader``, so what the code wrote reads
  /// back.
  ///
  /// ```swift
  /// let environment = Environment.test()
  /// try Interpreter.live(environment: environment).perform([.writeFile(path: "/a.txt", contents: data)])
  /// #expect(try environment.fileReader.contents(atPath: "/a.txt") == data)
  /// ```
  public var fileWriter: any FileWriter {
    get {
      storage.check(.fileWriter)
      return storage.fields.fileWriter
    }
    set { update(.fileWriter) { $0.fileWriter = newValue } }
  }

  /// Reads and writes files through `files`: sets ``fileReader`` and ``fileWriter`` to the same
  /// file system, so what effects write reads back.
  ///
  /// ```swift
  /// var environment = Environment.test()
  /// environment.useFileSystem(InMemoryFileSystem(["/notes/draft.txt": "hello"]))
  /// try Interpreter.live(environment: environment).perform([.writeFile(path: "/notes/today.txt", contents: data)])
  /// #expect(try environment.fileReader.contents(atPath: "/notes/today.txt") == data)
  /// ```
  public mutating func useFileSystem(_ files: some FileReader & FileWriter) {
    fileReader = files
    fileWriter = files
  }

  /// Settings. Live: ``UserDefaultsStore`` over `UserDefaults.standard`.
  public var defaults: any DefaultsStore {
    get {
      storage.check(.defaults)
      return storage.fields.defaults
    }
    set { update(.defaults) { $0.defaults = newValue } }
  }

  /// Where work runs later. Live: ``DispatchScheduler`` on a private serial queue; an app whose
  /// view models schedule UI work sets ``MainQueueScheduler``, and tests a `TestScheduler`.
  public var scheduler: any Scheduling {
    get {
      storage.check(.scheduler)
      return storage.fields.scheduler
    }
    set { update(.scheduler) { $0.scheduler = newValue } }
  }

  /// Where `.print` writes. Live: ``StandardOutput``; in a test environment, an
  /// ``InMemoryConsole`` that keeps the lines.
  public var console: any Console {
    get {
      storage.check(.console)
      return storage.fields.console
    }
    set { update(.console) { $0.console = newValue } }
  }

  /// Where `.track` logs analytics events. Live: none — install your analytics SDK's
  /// ``EventLogging`` at launch, or `.track` fails naming this property; in a test environment, an
  /// ``InMemoryEventLog`` that keeps the events.
  ///
  /// ```swift
  /// var environment = Environment.live
  /// environment.events = AmplitudeEvents()
  /// Environment.bootstrap(environment)
  /// ```
  public var events: any EventLogging {
    get {
      storage.check(.events)
      return storage.fields.events
    }
    set { update(.events) { $0.events = newValue } }
  }

  /// The calendar dates are computed in. Live: `Calendar.autoupdatingCurrent`.
  public var calendar: Calendar {
    get {
      storage.check(.calendar)
      return storage.fields.calendar
    }
    set { update(.calendar) { $0.calendar = newValue } }
  }

  /// The locale text is formatted in. Live: `Locale.autoupdatingCurrent`.
  public var locale: Locale {
    get {
      storage.check(.locale)
      return storage.fields.locale
    }
    set { update(.locale) { $0.locale = newValue } }
  }

  /// The time zone dates are shown in. Live: `TimeZone.autoupdatingCurrent`.
  public var timeZone: TimeZone {
    get {
      storage.check(.timeZone)
      return storage.fields.timeZone
    }
    set { update(.timeZone) { $0.timeZone = newValue } }
  }

  /// The app-defined co-effect stored under `key`.
  ///
  /// A key that was never set answers its `liveValue`, or, in a test environment, its `testValue`
  /// (reporting an issue when the key declares none; see ``CoeffectKey``).
  ///
  /// ```swift
  /// environment[APIClientKey.self] = MockAPIClient()
  /// ```
  public subscript<Key: CoeffectKey>(key: Key.Type) -> Key.Value {
    get {
      if let value = storage.fields.keyed[ObjectIdentifier(key)] {
        // Only the typed setter below stores under this identifier.
        return value as! Key.Value
      }
      guard let context = storage.fields.testContext else { return Key.liveValue }
      return context.resolve(key)
    }
    set {
      update([]) { $0.keyed[ObjectIdentifier(key)] = newValue }
    }
  }

  mutating func update(_ field: Field, _ change: (inout Fields) -> Void) {
    var fields = storage.fields
    fields.unimplemented.remove(field)
    change(&fields)
    storage = Storage(fields)
  }

  /// A copy whose protocol co-effects are replaced by `transform`ed versions — for test support,
  /// which wraps each of them (`recording(into:)`).
  ///
  /// The fields are handed over without going through their getters, and the copy keeps which
  /// fields report when read: wrapping an `Environment.unimplemented()` field reports nothing now,
  /// and the wrapped field still reports when the code under test reads it.
  package func mappingCoeffects(
    clock: (any WallClock) -> any WallClock,
    bundle: (any ResourceBundle) -> any ResourceBundle,
    fileReader: (any FileReader) -> any FileReader,
    defaults: (any DefaultsStore) -> any DefaultsStore,
    scheduler: (any Scheduling) -> any Scheduling
  ) -> Environment {
    var fields = storage.fields
    fields.clock = clock(fields.clock)
    fields.bundle = bundle(fields.bundle)
    fields.fileReader = fileReader(fields.fileReader)
    fields.defaults = defaults(fields.defaults)
    fields.scheduler = scheduler(fields.scheduler)
    var copy = self
    copy.storage = Storage(fields)
    return copy
  }
}

extension Environment {
  /// One co-effect field, as a bit.
  struct Field: OptionSet, Sendable {
    let rawValue: UInt16

    static let clock = Field(rawValue: 1 << 0)
    static let bundle = Field(rawValue: 1 << 1)
    static let fileReader = Field(rawValue: 1 << 2)
    static let defaults = Field(rawValue: 1 << 3)
    static let scheduler = Field(rawValue: 1 << 4)
    static let calendar = Field(rawValue: 1 << 5)
    static let locale = Field(rawValue: 1 << 6)
    static let timeZone = Field(rawValue: 1 << 7)
    static let fileWriter = Field(rawValue: 1 << 8)
    static let console = Field(rawValue: 1 << 9)
    static let events = Field(rawValue: 1 << 10)
    static let all: Field = [
      .clock, .bundle, .fileReader, .defaults, .scheduler, .calendar, .locale, .timeZone, .fileWriter, .console,
      .events,
    ]

    var name: String {
      switch self {
      case .clock: "clock"
      case .bundle: "bundle"
      case .fileReader: "fileReader"
      case .defaults: "defaults"
      case .scheduler: "scheduler"
      case .calendar: "calendar"
      case .locale: "locale"
      case .timeZone: "timeZone"
      case .fileWriter: "fileWriter"
      case .console: "console"
      default: "events"
      }
    }
  }

  /// The stored co-effects.
  struct Fields: Sendable {
    var clock: any WallClock
    var bundle: any ResourceBundle
    var fileReader: any FileReader
    var fileWriter: any FileWriter
    var defaults: any DefaultsStore
    var scheduler: any Scheduling
    var console: any Console
    var events: any EventLogging
    var calendar: Calendar
    var locale: Locale
    var timeZone: TimeZone
    var keyed: [ObjectIdentifier: any Sendable] = [:]
    /// Set in test environments: how they report a co-effect they cannot answer.
    var testContext: TestContext?
    /// Fields that report when read (`Environment.unimplemented()`, or the live root read inside
    /// a test); assigning one removes it.
    var unimplemented: Field = []

    /// The value of `field`, for a message.
    func value(of field: Field) -> Any {
      switch field {
      case .clock: clock
      case .bundle: bundle
      case .fileReader: fileReader
      case .defaults: defaults
      case .scheduler: scheduler
      case .calendar: calendar
      case .locale: locale
      case .timeZone: timeZone
      case .fileWriter: fileWriter
      case .console: console
      default: events
      }
    }
  }

  /// Immutable storage, replaced on every write, so copying an environment copies one reference
  /// and reading a field is one load (no copy of the other fields).
  final class Storage: Sendable {
    /// The co-effects; a `let`, so reading one is a load at a fixed offset, with no copy of the rest.
    let fields: Fields

    init(_ fields: Fields) {
      self.fields = fields
    }

    @inline(__always)
    func check(_ field: Field) {
      if !fields.unimplemented.isEmpty, fields.unimplemented.contains(field) {
        fields.testContext?.reportRead(of: field.name, answering: fields.value(of: field))
      }
    }
  }
}
