import Effects

/// One log of calls that several spies — and a recorded environment — write to, so a test can
/// assert the order of calls *across* collaborators, and that nothing else happened.
///
/// Give each ``Spy`` the same log, then assert the whole sequence at once:
///
/// ```swift
/// @Test func loggingInSavesTheTokenThenTracksTheEvent() throws {
///   let log = CallLog()
///   let saveToken = Spy<String, Void>("tokenStore.save", log: log)
///   let track = Spy<String, Void>("events.track", log: log)
///   let model = LoginModel(saveToken: { saveToken.record($0) }, track: { track.record($0) })
///
///   model.didLogIn(token: "abc")
///
///   log.assertCalls([
///     .init("tokenStore.save", "abc"),
///     .init("events.track", "login"),
///   ])
/// }
/// ```
///
/// Or check each collaborator on its own, then that no call escaped the assertions:
///
/// ```swift
/// saveToken.assertCalls(["abc"])
/// track.assertCalls(["login"])
/// log.assertNoUnverifiedCalls()
/// ```
///
/// Every spy assertion marks the calls it checked as *verified*; the log's own assertions
/// (``assertCalls(_:fileID:filePath:line:column:)``, ``assertCalls(count:fileID:filePath:line:column:)``,
/// ``assertNoCalls(fileID:filePath:line:column:)``) verify every entry. Like every recorder's, they
/// check everything logged since the log was made (or last cleared). A log is a reference type and
/// safe to share across tasks.
public final class CallLog: Sendable {
  private struct Record {
    var entry: Entry
    var isVerified = false
  }

  /// The entries since the last ``clear()``; an entry's index counts from the log's creation, so
  /// a spy holding the index of an entry cleared away never marks a later one.
  private struct Records {
    var list: [Record] = []
    /// How many entries were cleared away before `list[0]`.
    var cleared = 0
  }

  private let records = Locked(Records())

  /// Creates an empty log.
  public init() {}

  /// Every call logged so far, in the order they happened.
  public var entries: [Entry] {
    records.withLock { $0.list.map(\.entry) }
  }

  /// Forgets every entry, verified or not.
  ///
  /// ```swift
  /// log.clear()
  /// model.refresh()
  /// log.assertCalls([.init("api.fetch", "42")])
  /// ```
  public func clear() {
    records.withLock { records in
      records.cleared += records.list.count
      records.list.removeAll()
    }
  }

  /// Logs a call by hand — from a test double that is not a ``Spy``, for example.
  ///
  /// ```swift
  /// struct RecordingAPIClient: APIClient {
  ///   let log: CallLog
  ///   func fetchUser(id: Int) async throws -> User {
  ///     log.record("apiClient.fetchUser", "\(id)")
  ///     return .fixture
  ///   }
  /// }
  /// ```
  public func record(_ name: String, _ description: String = "") {
    append(Entry(name, description))
  }

  /// Asserts that the log holds exactly `expected`, in order — no more, no fewer — since it was
  /// made (or last cleared), and marks every entry verified. On a mismatch the message shows a
  /// line diff.
  ///
  /// ```swift
  /// log.assertCalls([
  ///   .init("bundle.path", "number.txt"),
  ///   .init("fileReader.contents", "/fixtures/number.txt"),
  /// ])
  /// ```
  ///
  /// The entries stay in the log: a later assertion checks them again, with the calls logged
  /// since. To check one step at a time, ``clear()`` the log after an assertion.
  public func assertCalls(
    _ expected: [Entry],
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    guard let message = Self.wording.listFailure(expected: expected, recorded: verifyAll(), describe: \.rendered)
    else { return }
    reportIssue(message, kind: .assertionFailed, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Asserts that exactly `count` calls were logged since the log was made (or last cleared),
  /// and marks every entry verified.
  ///
  /// ```swift
  /// log.assertCalls(count: 2)
  /// ```
  public func assertCalls(
    count: Int,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    guard let message = Self.wording.countFailure(count, recorded: { verifyAll().map(\.rendered) }) else { return }
    reportIssue(message, kind: .assertionFailed, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Asserts that nothing was logged since the log was made (or last cleared).
  ///
  /// ```swift
  /// log.assertNoCalls()
  /// ```
  public func assertNoCalls(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    guard let message = Self.wording.noneFailure(verifyAll().map(\.rendered)) else { return }
    reportIssue(message, kind: .assertionFailed, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Asserts that every logged call was checked by an assertion: a spy assertion
  /// (`assertCalls`, `assertCalls(count:)`, `assertNoCalls()`) or one of the log's own.
  ///
  /// Call it last, to prove that the code under test made no call the test did not expect.
  public func assertNoUnverifiedCalls(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let unverified = records.withLock { records in
      records.list.indices.filter { !records.list[$0].isVerified }.map { ($0, records.list[$0].entry) }
    }
    guard !unverified.isEmpty else { return }
    let list = renderList(unverified.map { (index: $0.0, text: $0.1.rendered) })
    reportIssue(
      """
      CallLog has \(counted(unverified.count, "call")) that no assertion verified:\(list)
      Assert them (a spy assertion, or assertCalls), or fix the code that made them.
      """,
      kind: .unverifiedCalls,
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
  }

  /// Every entry, each marked verified: an assertion of the log checks them all.
  private func verifyAll() -> [Entry] {
    records.withLock { records in
      for index in records.list.indices { records.list[index].isVerified = true }
      return records.list.map(\.entry)
    }
  }

  private static let wording = RecorderWording(
    subject: "CallLog",
    did: "logged",
    haveDone: "logged",
    amount: { counted($0, "call") },
    countAssertion: "assertCalls(count:)",
    noun: ("call", "log")
  )

  /// Appends `entry` and answers its index.
  @discardableResult
  package func append(_ entry: Entry) -> Int {
    records.withLock { records in
      records.list.append(Record(entry: entry))
      return records.cleared + records.list.count - 1
    }
  }

  /// Marks the entries at `indices` as checked by an assertion.
  package func markVerified(_ indices: some Sequence<Int>) {
    records.withLock { records in
      for index in indices where records.list.indices.contains(index - records.cleared) {
        records.list[index - records.cleared].isVerified = true
      }
    }
  }
}
