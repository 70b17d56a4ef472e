import Foundation

/// The process's root environment: ``Environment/live`` until the app bootstraps its own, once.
///
/// `Environment.current` reads it once, through ``publish()``, and keeps the value in a `static
/// let`: after that, reading the root costs no lock, and a bootstrap would no longer be seen, so it
/// is refused.
///
/// In a test binary that never bootstrapped, the root is ``Environment/live`` marked so that every
/// read of a field reports, in the running test, that nothing set it (and still answers the live
/// value). The mark costs an app nothing: an app's root is unmarked, and reading a field checks one
/// empty bit set, as it always did.
package final class RootEnvironment: Sendable {
  /// The one root of the process.
  package static let shared = RootEnvironment()

  private struct State {
    var environment: Environment = .live
    var bootstrappedAt: CallSite?
    var published = false
  }

  private let state = Locked(State())

  package init() {}

  /// The root as it is now.
  package var environment: Environment {
    state.withLock { $0.environment }
  }

  /// The root, fixed from now on: a later ``bootstrap(_:at:)`` throws.
  ///
  /// - Parameter reporter: how to report a live read inside a test; nil in an app.
  package func publish(reporter: (any TestIssueReporting.Type)? = TestSupportLink.reporter) -> Environment {
    state.withLock { state in
      state.published = true
      guard state.bootstrappedAt == nil, let reporter else { return state.environment }
      return state.environment.liveInTest { reporter.report($0, at: $1) }
    }
  }

  package func bootstrap(_ environment: Environment, at callSite: CallSite) throws(BootstrapError) {
    let refusal: BootstrapError? = state.withLock { state in
      if let first = state.bootstrappedAt { return BootstrapError(first: first, second: callSite) }
      if state.published { return BootstrapError(first: nil, second: callSite) }
      state.environment = environment
      state.bootstrappedAt = callSite
      return nil
    }
    if let refusal { throw refusal }
  }
}

/// A refused `Environment.bootstrap(_:)`: a second one, or one after the root was first read.
package struct BootstrapError: Error, CustomStringConvertible {
  /// Where the first bootstrap happened; nil when this one came after the first read instead.
  package var first: CallSite?
  package var second: CallSite

  package var description: String {
    guard let first else {
      return """
        Environment.bootstrap(_:) was called at \(second), after Environment.current had already been \
        read outside withEnvironment, so code has already seen the previous root. This call changed \
        nothing: the root stays the one already read. Bootstrap once, at launch, before anything reads \
        Environment.current.
        """
    }
    return """
      Environment.bootstrap(_:) was called twice: first at \(first), again at \(second). The second \
      call changed nothing: the first environment stays the root. Bootstrap the process's environment \
      once, at launch; to change it for one scope (a test, a request), use \
      withEnvironment(_:operation:) instead.
      """
  }
}

extension BootstrapError {
  /// Says that this bootstrap changed nothing: in a test, as an issue at the bootstrap call; in an
  /// app, on standard error.
  package func report(reporter: (any TestIssueReporting.Type)? = TestSupportLink.reporter) {
    if let reporter {
      reporter.report(description, at: second)
    } else {
      FileHandle.standardError.write(Data("swift-effects: \(description)\n".utf8))
    }
  }
}
