extension EventLogging {
  /// Tracks the event `name` with its `properties`: the old name of ``track(event:properties:)``.
  ///
  /// The requirement is now named like the effect it performs,
  /// ``Effect/track(event:properties:)``. A conforming type implements
  /// `track(event:properties:)` instead of `log(name:properties:)`.
  @available(*, deprecated, renamed: "track(event:properties:)")
  public func log(name: String, properties: [String: String]) {
    track(event: name, properties: properties)
  }
}
