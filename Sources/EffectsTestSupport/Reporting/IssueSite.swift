import Effects
import Testing

/// Where an issue about a virtual-time scope is reported: the line that called an API (captured
/// with `#fileID` and friends), or — for a scope opened by a trait — the test's own declaration.
struct IssueSite: CustomStringConvertible, Sendable {
  private enum Place: Sendable {
    case call(CallSite)
    case test(SourceLocation)
  }

  private let place: Place

  /// The line that called an API.
  init(_ callSite: CallSite) {
    place = .call(callSite)
  }

  /// A test's declaration, as Swift Testing knows it.
  init(_ location: SourceLocation) {
    place = .test(location)
  }

  /// `Module/File.swift:42`.
  var description: String {
    switch place {
    case .call(let callSite): callSite.description
    case .test(let location): "\(location.fileID):\(location.line)"
    }
  }

  /// The line that called an API; nil for a test's declaration.
  var callSite: CallSite? {
    guard case .call(let callSite) = place else { return nil }
    return callSite
  }

  /// Where a failure at this site is placed.
  var failureLocation: FailureLocation {
    switch place {
    case .call(let callSite): FailureLocation(callSite)
    case .test(let location): FailureLocation(location)
    }
  }

  /// Records a failure with `message` here.
  func report(_ message: String) {
    switch place {
    case .call(let callSite): recordFailure(message, at: FailureLocation(callSite))
    case .test(let location): recordFailure(message, at: FailureLocation(location))
    }
  }
}
