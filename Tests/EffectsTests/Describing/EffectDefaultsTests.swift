import Effects
import EffectsTestHelpers
import EffectsTestSupport
import Foundation
import Testing

/// `Effect.setDefault(_:for:)` and `Effect.removeDefault(for:)`: typed keys in effects.
@Suite struct EffectDefaultsTests {
  @Test func aTypedEffectIsTheCaseWithTheValueAsTheKeyStoresIt() {
    let date = Date(timeIntervalSince1970: 1_700_000_000)
    #expect(Effect.setDefault("dark", for: .theme) == .setDefault(.string("dark"), for: "theme"))
    #expect(Effect.setDefault(3, for: .launchCount) == .setDefault(.int(3), for: "launchCount"))
    #expect(Effect.setDefault(true, for: .onboarded) == .setDefault(.bool(true), for: "onboarded"))
    #expect(Effect.setDefault(0.5, for: .volume) == .setDefault(.double(0.5), for: "volume"))
    #expect(Effect.setDefault(Data([1]), for: .avatar) == .setDefault(.data(Data([1])), for: "avatar"))
    #expect(Effect.setDefault(date, for: .lastSync) == .setDefault(.date(date), for: "lastSync"))
    #expect(
      Effect.setDefault(Profile(name: "Blob", age: 42), for: .profile)
        == .setDefault(.data(Data(#"{"age":42,"name":"Blob"}"#.utf8)), for: "profile")
    )
    #expect(Effect.removeDefault(for: DefaultsKey<Profile>.profile) == .removeDefault(for: "profile"))
  }

  @Test func equalValuesMakeEqualEffectsWhateverTheirOrderInMemory() {
    let names = (0..<50).map { "name\($0)" }
    let forwards = Tally(counts: Dictionary(uniqueKeysWithValues: names.map { ($0, 1) }))
    let backwards = Tally(counts: Dictionary(uniqueKeysWithValues: names.reversed().map { ($0, 1) }))
    let key = DefaultsKey<Tally>("tally")
    #expect(Effect.setDefault(forwards, for: key) == .setDefault(backwards, for: key))
    #expect(Set([Effect.setDefault(forwards, for: key), .setDefault(backwards, for: key)]).count == 1)
    var changed = forwards
    changed.counts["name7"] = 2
    #expect(Effect.setDefault(changed, for: key) != .setDefault(forwards, for: key))
    #expect(Effect.setDefault(forwards, for: key) != .setDefault(forwards, for: DefaultsKey<Tally>("other")))
  }

  @Test func aTypedEffectDescribesTheJSONItStores() {
    #expect(
      Effect.setDefault(Profile(name: "Blob", age: 42), for: .profile).description
        == #"setDefault(data({"age":42,"name":"Blob"}), for: "profile")"#
    )
    #expect(Effect.setDefault("dark", for: .theme).description == #"setDefault("dark", for: "theme")"#)
  }

  @Test func aDecisionReturningTypedEffectsIsAssertedWithoutTry() {
    func finishOnboarding(_ profile: Profile) -> Outcome<Void, Effect> {
      Outcome(value: (), effects: [.setDefault(profile, for: .profile), .setDefault(true, for: .onboarded)])
    }
    assertEffects(
      of: finishOnboarding(Profile(name: "Blob", age: 42)),
      [.setDefault(Profile(name: "Blob", age: 42), for: .profile), .setDefault(true, for: .onboarded)]
    )
  }

  @Test func performedThroughTheLiveInterpreterATypedEffectReadsBackThroughItsKey() throws {
    let environment = Environment.test()
    let interpreter = Interpreter.live(environment: environment)
    try interpreter.perform([
      .setDefault(Profile(name: "Blob", age: 42), for: .profile), .setDefault("dark", for: .theme),
    ])
    #expect(try environment.defaults.value(for: .profile) == Profile(name: "Blob", age: 42))
    #expect(try environment.defaults.value(for: .theme) == "dark")
    try interpreter.perform([.removeDefault(for: .profile)])
    #expect(try environment.defaults.value(for: .profile) == nil)
  }

  @Test func describingAValueThatCannotBeEncodedFailsTheTestAndTheEffectSaysSo() {
    var effect: Effect?
    let line = #line + 2
    let issues = withCapturedIssues {
      effect = Effect.setDefault(Unencodable(), for: DefaultsKey<Unencodable>("broken"))
    }.issues
    expectReadIssues(
      issues,
      [
        CapturedIssue(
          """
          Effect.setDefault(_:for:) stored nothing: Could not encode Unencodable for defaults key "broken": top-level Unencodable \
          did not encode any values. A sound Encodable conformance never fails; to handle this error, encode with \
          DefaultsKey.encode(_:), which throws.
          """,
          line: line
        )
      ]
    )
    #expect(
      effect
        == .setDefault(
          .string("unencodable Unencodable: see the issue reported where this effect was made"),
          for: "broken"
        )
    )
  }
}
