import Foundation

/// Counts the issues a `withKnownIssue` matcher saw (the matcher is a `@Sendable` closure).
package final class IssueCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var messages: [String] = []

  package init() {}

  package func record(_ message: String) -> Bool {
    lock.withLock { messages.append(message) }
    return true
  }

  package var recorded: [String] { lock.withLock { messages } }
}
