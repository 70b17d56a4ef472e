import Effects
public import Foundation

/// Runs `body` in a virtual-time scope on a fresh ``TestScheduler``, which is also
/// `Environment.current`'s `scheduler` and `clock` and ``TestScheduler/current`` meanwhile: the
/// closure form of `@Test(.virtualTime)`, for XCTest and for a part of a test.
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
/// leftover work is reported at the line that scheduled it (tasks still suspended, at this call),
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
  let scheduler = TestScheduler(now: now)
  let site = IssueSite(CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  var environment = Environment.current
  environment.useVirtualTime(of: scheduler)
  let result: Result<R, Failure> = await TestScheduler.$scoped.withValue(scheduler) {
    await withEnvironment(environment) {
      await scheduler.withScope(at: site, leftoverWork: leftoverWork) { () async -> Result<R, Failure> in
        do throws(Failure) {
          return .success(try await body(scheduler))
        } catch {
          return .failure(error)
        }
      }
    }
  }
  return try result.get()
}
