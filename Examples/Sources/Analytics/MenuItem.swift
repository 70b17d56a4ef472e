/// Something on the menu.
public struct MenuItem: Hashable, Sendable {
  /// The item's name, as shown and as logged.
  public var name: String

  /// Creates an item named `name`.
  public init(name: String) {
    self.name = name
  }
}
