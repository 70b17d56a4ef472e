import Foundation

/// The built-in ``Environment/network`` co-effect.
package enum NetworkKey: BuiltInKey {
  package static var slot: Int { BuiltInSlot.network.rawValue }
  package static let member = "network"
  package static let liveValue: any Network = URLSessionNetwork()
  package static var testValue: any Network { OfflineNetwork() }
}

extension Environment {
  /// Where requests go. Live: ``URLSessionNetwork`` over `URLSession.shared`; in a test environment
  /// (`EffectsTestSupport`), a `StubNetwork` with no stubs, which reports every request as
  /// unexpected and never touches the network.
  ///
  /// ```swift
  /// let response = try await environment.network.send(.get("https://api.example.com/me"))
  /// ```
  public var network: any Network {
    get { self[builtIn: NetworkKey.self] }
    set { self[builtIn: NetworkKey.self] = newValue }
  }
}
