package import Effects

/// An app's own effect enum, as a user of the library would write it.
package enum LoginEffect: Equatable, Sendable {
  case showAlert(String)
  case storeToken(String)
}

/// What the server answered.
package enum LoginResponse {
  case success(token: String)
  case wrongPassword
}

/// A pure decision: whether the user is logged in, and what should happen.
package func login(_ response: LoginResponse) -> Outcome<Bool, LoginEffect> {
  switch response {
  case .success(let token): Outcome(value: true, effects: [.storeToken(token), .showAlert("Welcome")])
  case .wrongPassword: Outcome(value: false, effects: [.showAlert("Wrong password")])
  }
}
