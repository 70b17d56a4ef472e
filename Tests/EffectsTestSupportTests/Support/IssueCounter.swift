import Foundation

/// Counts the issues a `withKnownIssue` matcher saw (the matcher is a `@Sendable` closure).
final class IssueCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var messages: [String] = []

  func record(_ message: String) -> Bool {
    lock.withLock { messages.append(message) }
    return true
  }

  var recorded: [String] { lock.withLock { messages } }
}
