public import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The live ``LoginService``: posts the credentials as JSON to `url` and returns the body.
public struct HTTPLoginService: LoginService {
  /// Where the login endpoint is.
  public var url: URL

  /// Creates a service posting to `url`.
  public init(url: URL = URL(string: "https://api.example.com/login")!) {
    self.url = url
  }

  /// Posts `{"email": …, "password": …}` and returns the body as text.
  public nonisolated(nonsending) func logIn(email: String, password: String) async throws -> String {
    var request = URLRequest(url: url)
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.httpBody = try JSONEncoder().encode(["email": email, "password": password])
    let (data, _) = try await URLSession.shared.data(for: request)
    return String(decoding: data, as: UTF8.self)
  }
}
