import Effects
import Foundation
import Observation

/// A nested observable child of ``FeedModel``.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor @Observable final class DraftModel {
  var title = ""
  var isSaving = false

  init(title: String = "") {
    self.title = title
  }
}

/// What a payload enum looks like in a model's state.
enum Phase: Equatable {
  case idle
  case loading(page: Int)
  case failed(String)
}

/// A value that is not `Equatable`: compared by its structure.
struct Filter {
  var terms: [String]
  var limit: Int
}

/// A `@MainActor @Observable` model of the kind apps write: tasks it starts itself, an async method,
/// effects on the world through the environment, a nested child, and an ignored cache.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor @Observable final class FeedModel {
  var items: [String] = []
  var isLoading = false
  var isSaving = false
  var count = 0
  var phase = Phase.idle
  var filter = Filter(terms: [], limit: 10)
  var scores: [String: Int] = [:]
  var query: String?
  var draft: DraftModel?
  private(set) var refreshes = 0
  @ObservationIgnored var cache: [String] = []
  @ObservationIgnored let environment = Environment.current
  var itemCount: Int { items.count }

  func incrementTapped() {
    count += 1
  }

  /// Starts a task: loading shows at once, the items after a second.
  func refreshTapped() {
    Task { await refresh() }
  }

  func refresh() async {
    isLoading = true
    refreshes += 1
    try? await environment.continuousClock.sleep(for: .seconds(1))
    items = ["a", "b"]
    isLoading = false
    environment.events.track(event: "refreshed", properties: ["count": "2"])
  }

  /// A flag that goes up and down in one job: no screen can show it.
  func flicker() {
    isSaving = true
    count += 1
    isSaving = false
  }

  func saveDraftTapped() {
    draft?.isSaving = true
    Task {
      try? await environment.continuousClock.sleep(for: .milliseconds(300))
      environment.defaults.set(.string(draft?.title ?? ""), for: "draft")
      draft?.isSaving = false
    }
  }
}

/// Two properties of one type that start equal: used by one test only, so that the tester has not
/// learnt their key paths before it.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor @Observable final class TwinFlags {
  var first = "same"
  var second = "same"
}

/// A class that says it is `Observable` without the macro: nothing the tester can read.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor final class HandRolled: Observable {
  var count = 0
}

/// A model made with the live environment, outside any test.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor @Observable final class LiveModel {
  var count = 0
  @ObservationIgnored let environment: Environment

  init(environment: Environment) {
    self.environment = environment
  }
}

/// A chain of observable children, each holding the next.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor @Observable final class Node {
  var value = 0
  var next: Node?
  var rows: [Row] = []
  var note = Note(data: Data(), at: Date(timeIntervalSinceReferenceDate: 0))
  @ObservationIgnored var cache = 0

  init(next: Node? = nil) {
    self.next = next
  }
}

/// An observable object held in an array, compared by identity by its `==`.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor @Observable final class Row: Equatable {
  var title = ""

  nonisolated static func == (one: Row, other: Row) -> Bool { one === other }
}

/// A value that is not `Equatable`, holding values that print alike when they differ.
struct Note {
  var data: Data
  var at: Date
}
