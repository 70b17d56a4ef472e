import Effects
public import Foundation

/// Runs `body` in a virtual-time scope on a fresh ``TestScheduler``, which is also
/// `Environment.current`'s `scheduler` and `clock` (its virtual clock the `continuousClock`) and
/// ``TestScheduler/current`` meanwhile: the
/// closure form of `@Test(.virtualTime)`, for XCTest and for a part of a test.
///
/// Inside `withEnvironment(…)` it keeps that environment and puts it on the scope's scheduler;
/// with no environment set, it runs on an `Environment.test()` of its own, so nothing in the
/// scope reads the live world.
///
/// ```swift
/// final class SearchModelTests: XCTestCase {
///   @MainActor func testSearchesOnceTheUserStopsTyping() async {
///     await withVirtualTime { scheduler in
///       let model = SearchModel()   // schedules through Environment.current.scheduler
///       model.type("sw")
///       await scheduler.advance(by: .milliseconds(300))
///       XCTAssertEqual(model.searches, ["sw"])
///     }
///   }
/// }
/// ```
///
/// The scope ends exhaustively, like ``TestScheduler/withVirtualTime(leftoverWork:isolation:fileID:filePath:line:column:_:)``:
/// leftover work is reported at the line that scheduled it (a task still suspended, at the line
/// that started it),
/// then cancelled — unless `leftoverWork` is ``TestScheduler/LeftoverWork/expected``.
public func withVirtualTime<R, Failure: Error>(
  now: Date = Date(timeIntervalSinceReferenceDate: 0),
  leftoverWork: TestScheduler.LeftoverWork = .reported,
  isolation: isolated (any Actor)? = #isolation,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column,
  _ body: (TestScheduler) async throws(Failure) -> R
) async throws(Failure) -> R {
  try await TestScheduler(now: now).withTestScope(
    at: FailureLocation(CallSite(fileID: fileID, filePath: filePath, line: line, column: column)),
    origin: "withVirtualTime",
    leftoverWork: leftoverWork,
    body
  )
}

/// Runs `body` again and again, each time in a virtual-time scope of its own on a fresh
/// ``TestScheduler``, each run in an order of its jobs that `exploration` chooses, until one fails:
/// its report gives the schedule and the line that replays it (see ``Exploration``). The closure
/// form of `@Test(.virtualTime(exploring:))`, for XCTest and for a part of a test.
///
/// ```swift
/// final class SessionTests: XCTestCase {
///   func testRefreshesTheTokenOnce() async {
///     await withVirtualTime(exploring: .pct()) { scheduler in
///       let session = Session()
///       async let first = session.validToken()
///       async let second = session.validToken()
///       _ = await (first, second)
///       XCTAssertEqual(session.refreshes, 1)
///     }
///   }
/// }
/// ```
///
/// Make the run's world inside `body`: a run that failed stops the exploration, and one that
/// shares an object with the runs before it does not test the order alone. Inside
/// `withEnvironment(…)`, every run shares that environment's doubles; with no environment set,
/// each run gets an `Environment.test()` of its own.
///
/// Returns the last run's result, or throws the error of the run that threw.
public func withVirtualTime<R, Failure: Error>(
  exploring exploration: Exploration,
  now: Date = Date(timeIntervalSinceReferenceDate: 0),
  leftoverWork: TestScheduler.LeftoverWork = .reported,
  isolation: isolated (any Actor)? = #isolation,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column,
  _ body: (TestScheduler) async throws(Failure) -> R
) async throws(Failure) -> R {
  let site = FailureLocation(CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  let result: Result<R, Failure> = await exploration.run(at: site) { schedule in
    do throws(Failure) {
      return .success(
        try await TestScheduler(now: now).withTestScope(
          at: site,
          origin: "withVirtualTime",
          leftoverWork: leftoverWork,
          schedule: schedule,
          body
        )
      )
    } catch {
      return .failure(error)
    }
  }
  return try result.get()
}
