import Foundation

/// The live ``DefaultsStore``: `UserDefaults`, standard or of a suite.
///
/// ```swift
/// let settings = UserDefaultsStore()                               // UserDefaults.standard
/// let shared = UserDefaultsStore(suiteName: "group.com.example")   // an app group
/// settings.set(true, for: "hasLaunched")
/// ```
///
/// Values are translated between property-list objects and ``DefaultsValue`` exactly: a Boolean
/// stays `.bool` even where `UserDefaults` keeps it as an `NSNumber`, and a value that is not a
/// property-list type reads as `nil`. `UserDefaults` is thread-safe, so the store takes no lock of
/// its own: on Apple platforms `set` tells observers (key-value observing,
/// `UserDefaults.didChangeNotification`) before it returns, on the same thread, and an observer
/// may read this store back.
///
/// `UserDefaults` itself does not conform to ``DefaultsStore``: it holds `Any`, which this store
/// translates to and from ``DefaultsValue``, and it is not `Sendable` on every platform.
public struct UserDefaultsStore: DefaultsStore {
  /// The suite this store reads, or `nil` for `UserDefaults.standard`.
  package let suiteName: String?
  /// `nil` when `UserDefaults` refused ``suiteName`` in a process that runs tests (reported).
  private let defaults: SharedDefaults?

  /// Creates a store over `UserDefaults.standard`, or over the suite named `suiteName`.
  ///
  /// A suite name that `UserDefaults` refuses (on Apple platforms, the app's own bundle
  /// identifier or `NSGlobalDomain`) is a programmer error, reported with the name at the line
  /// that made the store. In a process that runs tests it fails the running test and the process
  /// goes on: the store then reads nothing and stores nothing. In an app it stops the program.
  public init(
    suiteName: String? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    self.init(
      suiteName: suiteName,
      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column),
      open: UserDefaults.init(suiteName:)
    )
  }

  /// ``init(suiteName:fileID:filePath:line:column:)`` with the suite opened by `open`, and a
  /// refusal reported through `reporter`: tests refuse a name on every platform.
  init(
    suiteName: String?,
    at callSite: CallSite,
    open: (String) -> UserDefaults?,
    reporter: (any TestIssueReporting.Type)? = TestSupportLink.reporter
  ) {
    self.suiteName = suiteName
    guard let suiteName else {
      defaults = SharedDefaults(UserDefaults.standard)
      return
    }
    if let suite = open(suiteName) {
      defaults = SharedDefaults(suite)
      return
    }
    let message =
      "UserDefaultsStore(suiteName: \"\(suiteName)\") opened no suite: UserDefaults refused the name. Pass "
      + "another name (not the app's bundle identifier, nor NSGlobalDomain), or nil for UserDefaults.standard."
    // `fatalError`, not `preconditionFailure`: the message must survive release builds.
    guard let reporter else { fatalError(message) }
    reporter.report(message, kind: .invalidArgument, exactlyAt: callSite)
    defaults = nil
  }

  /// The value stored under `key`, or `nil` when there is none or it is not a property-list value.
  public func value(for key: String) -> DefaultsValue? {
    defaults?.defaults.object(forKey: key).flatMap(Self.defaultsValue(from:))
  }

  /// Stores `value` under `key`; `nil` removes the key.
  public func set(_ value: DefaultsValue?, for key: String) {
    let object = value.map(Self.propertyList(from:))
    guard let defaults = defaults?.defaults else { return }
    if let object {
      defaults.set(object, forKey: key)
    } else {
      defaults.removeObject(forKey: key)
    }
  }

  static func propertyList(from value: DefaultsValue) -> Any {
    switch value {
    case .string(let value): value
    case .int(let value): value
    case .double(let value): value
    case .bool(let value): value
    case .data(let value): value
    case .date(let value): value
    case .array(let values): values.map(propertyList(from:))
    case .dictionary(let values): values.mapValues(propertyList(from:))
    }
  }

  static func defaultsValue(from object: Any) -> DefaultsValue? {
    switch object {
    // Native Swift values first (swift-corelibs-foundation hands them back unbridged).
    case let value as Bool where type(of: object) == Bool.self: return .bool(value)
    case let value as Int where type(of: object) == Int.self: return .int(value)
    case let value as Double where type(of: object) == Double.self: return .double(value)
    case let value as String: return .string(value)
    case let value as Data: return .data(value)
    case let value as Date: return .date(value)
    case let number as NSNumber: return numberValue(number)
    case let values as [Any]:
      var result: [DefaultsValue] = []
      result.reserveCapacity(values.count)
      for value in values {
        guard let converted = defaultsValue(from: value) else { return nil }
        result.append(converted)
      }
      return .array(result)
    case let values as [String: Any]:
      var result: [String: DefaultsValue] = [:]
      for (key, value) in values {
        guard let converted = defaultsValue(from: value) else { return nil }
        result[key] = converted
      }
      return .dictionary(result)
    default:
      return nil
    }
  }

  private static func numberValue(_ number: NSNumber) -> DefaultsValue {
    if number.holdsBool { return .bool(number.boolValue) }
    switch String(cString: number.objCType) {
    case "d", "f": return .double(number.doubleValue)
    default: return .int(number.intValue)
    }
  }
}

/// A `UserDefaults` shared between threads. Apple documents `UserDefaults` as thread-safe (and
/// swift-corelibs-foundation guards its state the same way), but not every SDK marks it
/// `Sendable`. Not a lock: a lock held across `set` would be held while observers run, and an
/// observer reading the store back would wait for its own thread.
private final class SharedDefaults: @unchecked Sendable {
  let defaults: UserDefaults

  init(_ defaults: UserDefaults) {
    self.defaults = defaults
  }
}
