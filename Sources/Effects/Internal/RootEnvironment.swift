/// The process's root environment: ``Environment/live`` until the app bootstraps its own, once.
package final class RootEnvironment: Sendable {
  /// The one root of the process.
  package static let shared = RootEnvironment()

  private let state = Locked<(environment: Environment, bootstrappedAt: CallSite?)>((.live, nil))

  package init() {}

  package var environment: Environment {
    state.withLock { $0.environment }
  }

  package func bootstrap(_ environment: Environment, at callSite: CallSite) throws(BootstrapError) {
    let firstCallSite: CallSite? = state.withLock { state in
      if let first = state.bootstrappedAt { return first }
      state = (environment, callSite)
      return nil
    }
    if let firstCallSite {
      throw BootstrapError(first: firstCallSite, second: callSite)
    }
  }
}

/// A second `Environment.bootstrap(_:)`.
package struct BootstrapError: Error, CustomStringConvertible {
  package var first: CallSite
  package var second: CallSite

  package var description: String {
    """
    Environment.bootstrap(_:) was called twice: first at \(first), again at \(second). Bootstrap \
    the process's environment once, at launch; to change it for one scope (a test, a request), use \
    withEnvironment(_:operation:) instead.
    """
  }
}
