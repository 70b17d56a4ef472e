import Effects
import EffectsTestHelpers
import EffectsTestSupport
import Foundation
import Testing

/// A store with state, as an app's test double would have.
private final class InMemoryCart: Sendable {
  let items = Locked<[String]>([])
}

/// An app key whose test value is computed: a fresh cart each time it is asked.
private enum CartKey: CoeffectKey {
  static var liveValue: InMemoryCart { InMemoryCart() }
  static var testValue: InMemoryCart { InMemoryCart() }
}

extension Environment {
  fileprivate var cart: InMemoryCart {
    get { self[CartKey.self] }
    set { self[CartKey.self] = newValue }
  }
}

/// Built-in co-effects and an app's keys are one mechanism: a key with a live value and a test
/// value, read through a property.
@Suite struct CoeffectKeyTests {
  @Test func aComputedTestValueIsReadOncePerTestEnvironmentAndSharedByItsCopies() {
    let environment = Environment.test()
    environment.cart.items.withLock { $0.append("apple") }
    var copy = environment
    copy.locale = Locale(identifier: "fr_FR")
    #expect(copy.cart === environment.cart, "a copy made before or after the first read shares the double")
    #expect(copy.cart.items.snapshot == ["apple"])
    #expect(Environment.test().cart !== environment.cart, "the next test environment gets its own")
    #expect(Environment.test().cart.items.snapshot == [])
  }

  @Test(arguments: ["defaults", "console", "events", "fileReader", "bundle"])
  func aBuiltInTestDoubleIsOnePerTestEnvironment(_ field: String) {
    let environment = Environment.test()
    var copy = environment
    copy.timeZone = TimeZone(identifier: "Asia/Tokyo")!
    let other = Environment.test()
    func identity(_ environment: Environment) -> ObjectIdentifier? {
      switch field {
      case "defaults": ObjectIdentifier(environment.defaults as AnyObject)
      case "console": ObjectIdentifier(environment.console as AnyObject)
      case "events": ObjectIdentifier(environment.events as AnyObject)
      case "fileReader": ObjectIdentifier(environment.fileReader as AnyObject)
      default: nil
      }
    }
    #expect(identity(copy) == identity(environment))
    if identity(environment) != nil {
      #expect(identity(other) != identity(environment))
    }
  }

  @Test func whatATestWritesToItsDefaultsIsThereAtTheNextRead() {
    let environment = Environment.test()
    environment.defaults.set("dark", for: "theme")
    #expect(environment.defaults.value(for: "theme") == "dark")
    #expect(Environment.test().defaults.value(for: "theme") == nil)
  }

  @Test func theFileSystemOfATestEnvironmentReadsWhatItsWriterWrote() throws {
    let environment = Environment.test()
    try environment.fileWriter.writeFile(path: "/a.txt", contents: Data("hi".utf8))
    #expect(try environment.fileReader.string(atPath: "/a.txt") == "hi")
  }

  @Test func anUnimplementedEnvironmentTreatsBuiltInsAndAppKeysAlike() {
    var environment = Environment.unimplemented()
    environment.clock = FixedClock(Date(timeIntervalSince1970: 0))
    environment.cart = InMemoryCart()
    let issues = withCapturedIssues {
      _ = environment.clock.now
      _ = environment.cart
    }.issues
    #expect(issues.isEmpty, "a co-effect the test set is answered silently, built-in or not")
  }

  @Test func theLiveEnvironmentAnswersEveryLiveValue() {
    withEnvironment(.live) {
      let live = Environment.current
      #expect(live.clock is SystemClock)
      #expect(live.fileReader is DiskFileSystem)
      #expect(live.fileWriter is DiskFileSystem)
      #expect(live.defaults is UserDefaultsStore)
      #expect(live.scheduler is DispatchScheduler)
      #expect(live.console is StandardOutput)
      #expect(live.calendar == .autoupdatingCurrent)
    }
  }

  @Test func settingAFieldOfARecordingEnvironmentReplacesTheRecorder() {
    let log = CallLog()
    var environment = Environment.test().recording(into: log)
    _ = environment.defaults.value(for: "theme")
    environment.defaults = InMemoryDefaults()
    _ = environment.defaults.value(for: "theme")
    log.assertCalls([.init("defaults.value", "theme")])
  }

}
