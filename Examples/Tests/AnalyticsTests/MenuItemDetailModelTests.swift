import Analytics
import Effects
import EffectsTestSupport
import Testing

/// A tracked event, comparable.
struct TrackedEvent: Equatable, Sendable, CustomStringConvertible {
  var name: String
  var properties: [String: String]

  var description: String { "\(name) \(properties.sorted { $0.key < $1.key })" }
}

/// The seed's `EventLogSpy`, as a line around a `Spy`.
struct EventLogSpy: EventLog {
  let spy: Spy<TrackedEvent, Void>
  func track(event: String, properties: [String: String]) {
    spy.record(TrackedEvent(name: event, properties: properties))
  }
}

@Suite struct MenuItemDetailModelTests {
  let events = Spy<TrackedEvent, Void>("events.track")

  func model(item: MenuItem = MenuItem(name: "item"), ordered: [MenuItem] = []) -> MenuItemDetailModel {
    MenuItemDetailModel(item: item, order: OrderController(items: ordered), events: EventLogSpy(spy: events))
  }

  @Test func appearingLogsTheVisitWithTheItemsName() {
    model().onAppear()
    events.assertCalls([TrackedEvent(name: "menu_item_detail_visited", properties: ["item_name": "item"])])
  }

  @Test func orderingLogsTheOrderWithTheItemsName() {
    let model = model()
    model.addOrRemoveFromOrder()
    #expect(model.isOrdered)
    events.assertCalls([TrackedEvent(name: "menu_item_ordered", properties: ["item_name": "item"])])
  }

  /// The seed's extra test: logging before the `if` would pass the test above, but not this one.
  @Test func removingLogsNothing() {
    let item = MenuItem(name: "item")
    let model = model(item: item, ordered: [item])
    model.addOrRemoveFromOrder()
    #expect(!model.isOrdered)
    events.assertNoCalls()
  }

  @Test func aVisitThenAnOrderLogBothInOrder() {
    let model = model()
    model.onAppear()
    model.addOrRemoveFromOrder()
    model.addOrRemoveFromOrder()
    events.assertCalls([
      TrackedEvent(name: "menu_item_detail_visited", properties: ["item_name": "item"]),
      TrackedEvent(name: "menu_item_ordered", properties: ["item_name": "item"]),
    ])
  }

  /// The model logs through `EventLog`, so the same calls reach the live interpreter's
  /// analytics unchanged when events are described as `Effect.track` instead.
  @Test func trackEffectsReachTheSameLogger() throws {
    var environment = Environment.test()
    environment.events = EventLogSpy(spy: events)
    let interpreter = Interpreter.live(environment: environment)
    try interpreter.perform([.track(event: "menu_item_ordered", properties: ["item_name": "item"])])
    events.assertCalls([TrackedEvent(name: "menu_item_ordered", properties: ["item_name": "item"])])
  }
}
