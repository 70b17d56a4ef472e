import EffectsTestSupport
import Login

/// The seed's three hand-written spies, each now a line around a `Spy`.
struct AlertPresenterSpy: AlertPresenter {
  let spy: Spy<String, Void>
  func present(error: String) { spy.record(error) }
}

struct TokenStoreSpy: TokenStore {
  let spy: Spy<String, Void>
  func set(sessionToken: String) { spy.record(sessionToken) }
}

struct ValidationLabelSpy: ValidationLabel {
  let spy: Spy<String, Void>
  func show(_ text: String) { spy.record(text) }
}

/// A login screen wired to spies that share one call log.
struct SpiedLoginScreen {
  let log = CallLog()
  let alerts: Spy<String, Void>
  let tokens: Spy<String, Void>
  let label: Spy<String, Void>
  let screen: LoginScreen

  init() {
    alerts = Spy("alerts.present", log: log)
    tokens = Spy("tokens.set", log: log)
    label = Spy("label.show", log: log)
    screen = LoginScreen(
      alerts: AlertPresenterSpy(spy: alerts),
      tokens: TokenStoreSpy(spy: tokens),
      label: ValidationLabelSpy(spy: label)
    )
  }
}
