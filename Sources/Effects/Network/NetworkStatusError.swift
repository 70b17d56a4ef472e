public import Foundation

/// A request sent by the ``Effect/send(_:)`` effect got a response whose status is not a success
/// (outside `200..<300`): the live interpreter hands it to its `onFailure` handler, as the
/// underlying error of an ``InterpreterError``.
///
/// ```swift
/// let interpreter = Interpreter.live { failure in
///   if let status = failure.underlying as? NetworkStatusError, status.response.status == 401 {
///     // the session expired before the logout reached the server
///   }
/// }
/// ```
public struct NetworkStatusError: Error, Hashable, Sendable {
  /// The request that was sent.
  public var request: NetworkRequest
  /// What the server answered.
  public var response: NetworkResponse

  /// The error for `response` to `request`.
  public init(request: NetworkRequest, response: NetworkResponse) {
    self.request = request
    self.response = response
  }
}

extension NetworkStatusError: CustomStringConvertible, LocalizedError {
  /// `POST https://api.example.com/logout answered 500, not a success (200..<300): "…"`.
  public var description: String {
    let body = response.body.isEmpty ? "" : ": \(describeBody(response.body))"
    return
      "\(request.method) \(request.url.absoluteString) answered \(response.status), not a success (200..<300)\(body)"
  }

  /// The same as ``description``.
  public var errorDescription: String? {
    description
  }
}
