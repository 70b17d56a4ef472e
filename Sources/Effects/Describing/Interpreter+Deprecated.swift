extension Interpreter where E == Effect {
  /// The live interpreter, acting on ``Environment/current``: the old spelling of ``live``.
  ///
  /// Write `Interpreter.live`, without parentheses, as `Environment.live` is written. The
  /// configured form keeps its parentheses: `Interpreter.live(environment: environment)`.
  ///
  /// The unnamed parameter exists only so that `Interpreter.live()` finds this deprecation, not the
  /// configured form with its defaults: Swift allows no function named `live()` beside the
  /// property `live`. Pass nothing.
  @available(*, deprecated, message: "write Interpreter.live, without parentheses, like Environment.live")
  public static func live(_: Void = ()) -> Self {
    live
  }
}
