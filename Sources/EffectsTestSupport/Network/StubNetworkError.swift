public import Effects

/// What ``StubNetwork`` throws to the code under test for a request no stub matches (the test has
/// already failed, with the closest stub and a diff).
///
/// It is not a `URLError` on purpose: code that handles network failures must not mistake a gap in
/// the test for one.
public struct StubNetworkError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The request no stub matched.
  public var request: NetworkRequest

  /// The error for `request`.
  public init(request: NetworkRequest) {
    self.request = request
  }

  /// `StubNetwork has no stub for GET https://api.example.com/me`.
  public var description: String {
    "StubNetwork has no stub for \(request)"
  }
}
