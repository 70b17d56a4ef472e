public import Effects

/// The menu-item detail screen's model: it logs when the screen appears and when the item is
/// ordered, through the ``EventLog`` output protocol — never through an analytics SDK directly.
///
/// ```swift
/// let model = MenuItemDetailModel(item: pizza, order: order, events: analytics)
/// model.onAppear()             // menu_item_detail_visited
/// model.addOrRemoveFromOrder() // menu_item_ordered (or nothing, when removing)
/// ```
public struct MenuItemDetailModel: Sendable {
  /// The item shown.
  public let item: MenuItem
  /// The order the item is added to or removed from.
  public let order: OrderController
  private let events: any EventLog

  /// Creates the model for `item`.
  public init(item: MenuItem, order: OrderController, events: any EventLog) {
    self.item = item
    self.order = order
    self.events = events
  }

  /// Whether the item is in the order.
  public var isOrdered: Bool { order.items.contains(item) }

  /// Call when the screen is shown: logs `menu_item_detail_visited`.
  public func onAppear() {
    events.track(event: "menu_item_detail_visited", properties: ["item_name": item.name])
  }

  /// Adds the item (logging `menu_item_ordered`) or removes it (logging nothing).
  public func addOrRemoveFromOrder() {
    if isOrdered {
      order.remove(item)
    } else {
      order.add(item)
      events.track(event: "menu_item_ordered", properties: ["item_name": item.name])
    }
  }
}
