extension Effect {
  /// Stores `value` under `key`: the old spelling of ``setDefault(_:for:)-enum.case``.
  ///
  /// The case now takes the value first and the key's name after `for:`, the words of
  /// `DefaultsStore.set(_:for:)` and of ``setDefault(_:for:)-type.method``:
  /// `.setDefault(key: "theme", value: "dark")` is `.setDefault("dark", for: "theme")`. (Not a
  /// `renamed:` fix-it: it would keep the arguments in their old order, and swap them.)
  @available(*, deprecated, message: "write .setDefault(value, for: key): the value comes first")
  public static func setDefault(key: String, value: DefaultsValue) -> Effect {
    .setDefault(value, for: key)
  }

  /// Removes `key`: the old spelling of ``removeDefault(for:)-enum.case``.
  @available(*, deprecated, renamed: "removeDefault(for:)")
  public static func removeDefault(key: String) -> Effect {
    .removeDefault(for: key)
  }
}
