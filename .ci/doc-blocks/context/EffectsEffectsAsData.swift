// What the blocks of Sources/Effects/Documentation.docc/Articles/EffectsAsData.md assume and do
// not show: an analytics SDK, a logger, a keychain and an alert presenter of the app, and the
// interpreter and effects a failure-handling snippet works on.
import Effects

/// Stands in for the Amplitude SDK.
final class Amplitude: Sendable {
  static func instance() -> Amplitude { Amplitude() }
  func logEvent(_ event: String, withEventProperties properties: [String: String]) {}
}

struct AppLogger: Sendable {
  func error(_ message: String) {}
}
let logger = AppLogger()

let interpreter = Interpreter.live
let effects: [Effect] = [.print("Saved")]
func retryLater(_ effects: [Effect]) {}

struct AlertPresenter: Sendable {
  func show(_ message: String) {}
}
let alertPresenter = AlertPresenter()

struct Keychain: Sendable {
  func store(_ token: String) throws {}
}
let keychain = Keychain()
