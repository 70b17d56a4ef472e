import Foundation

/// The login service's body when the credentials are accepted.
struct UserToken: Decodable {
  let token: String

  enum CodingKeys: String, CodingKey {
    case token = "session_token"
  }
}

/// The login service's body when the form has errors (still a "successful" HTTP call).
struct ValidationErrors: Decodable {
  let errors: [String]

  enum CodingKeys: String, CodingKey {
    case errors = "validation_errors"
  }
}

/// Decides what a login response means. Pure: no alert is shown, nothing is stored; the answer
/// is a ``LoginDecision`` that ``LoginReducer`` turns into the next state and its effects.
///
/// Every response has an answer, including the two the original code forgot: a body holding a
/// token *and* validation errors, and a body holding neither.
///
/// ```swift
/// decision(for: .failure(URLError(.notConnectedToInternet)))  // .showAlert(message: "…offline…")
/// decision(for: .success(#"{"session_token":"abc"}"#))          // .storeToken(sessionToken: "abc")
/// ```
public func decision(for response: Result<String, any Error>) -> LoginDecision {
  switch response {
  case .failure(let error):
    return .showAlert(message: error.localizedDescription)
  case .success(let json):
    let data = Data(json.utf8)
    let errors = try? JSONDecoder().decode(ValidationErrors.self, from: data)
    let token = try? JSONDecoder().decode(UserToken.self, from: data)
    switch (errors, token) {
    case (let errors?, nil):
      return .showValidationError(errors.errors.joined(separator: "\n"))
    case (nil, let token?):
      return .storeToken(sessionToken: token.token)
    case (nil, nil), (.some, .some):
      return .showAlert(message: unexpectedResponseMessage)
    }
  }
}

/// The alert shown for a response that is neither a token nor validation errors (or is both).
public let unexpectedResponseMessage = "Unexpected response received"
