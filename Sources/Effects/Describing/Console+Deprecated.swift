extension Console {
  /// Prints `line`: the old name of ``print(_:)``.
  ///
  /// The requirement is now named like the effect it performs, ``Effect/print(_:)``. A conforming
  /// type implements `print(_:)` instead of `write(_:)`.
  @available(*, deprecated, renamed: "print(_:)")
  public func write(_ line: String) {
    print(line)
  }
}
