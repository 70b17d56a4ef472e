public import Foundation

/// Where an app's bundled resources are, as a co-effect.
///
/// `Bundle` conforms, so `Environment.live.bundle` is `Bundle.main`. Tests use
/// `FixtureBundle` from `EffectsTestSupport`, which maps names to paths without touching disk:
///
/// ```swift
/// func numberPath(environment: Environment = .current) -> String? {
///   environment.bundle.path(forResource: "number", ofType: "txt")
/// }
/// ```
///
/// A conforming type must answer like `Bundle` does: the name may carry its extension
/// (`("number.txt", nil)`) or pass it separately (`("number", "txt")`), and an unknown resource
/// answers `nil` rather than throwing.
public protocol ResourceBundle: Sendable {
  /// The full path of the resource named `name` with extension `ext`, or `nil` when there is none.
  func path(forResource name: String?, ofType ext: String?) -> String?
}

extension Bundle: ResourceBundle {}
