// What the blocks of Sources/Effects/Documentation.docc/Articles/AsyncTimeIdentifiersAndRandomness.md
// assume and do not show: the app's `Todo` and `Card` types (and `debounce(for:clock:)`, in
// Debounce.swift).
import Foundation

struct Todo: Equatable, Sendable {
  var id: UUID
  var title: String
}

struct Card: Equatable, Sendable {
  var rank: Int
  var suit: Character
}
