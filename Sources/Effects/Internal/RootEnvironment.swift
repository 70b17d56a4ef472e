import Foundation

/// The process's root environment: ``Environment/live`` until the app bootstraps its own, once.
///
/// `Environment.current` reads it once, through ``publish()``, and keeps the value in a `static
/// let`: after that, reading the root costs no lock, and a bootstrap would no longer be seen, so it
/// is refused.
///
/// In a process that runs tests, the root — ``Environment/live``, or what the test host
/// bootstrapped — is marked so that every read of a field reports, in the running test, that the
/// test set no environment (and still answers the root's value). The mark costs an app nothing: an
/// app's root is unmarked, and reading a field checks one empty bit set, as it always did.
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
  /// - Parameter marking: whether reads of the root report (a process that runs tests); false in
  ///   an app.
  package func publish(marking: Bool = TestSupportLink.isRunningTests) -> Environment {
    state.withLock { state in
      state.published = true
      guard marking else { return state.environment }
      let origin = state.bootstrappedAt.map { "the root environment bootstrapped at \($0)" } ?? "Environment.live"
      // Test support is looked up when a read is reported, not now: an app hosting tests reads its
      // root at launch, before the test bundle that holds the reporter is loaded.
      return state.environment.liveInTest(origin: origin) { message, callSite in
        TestSupportLink.report(message, at: callSite)
      }
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
      reporter.report(description, kind: .bootstrapRefused, exactlyAt: second)
    } else {
      warn(description)
    }
  }
}
