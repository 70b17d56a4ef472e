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
  try await TestScheduler(now: now).withTestScope(
    at: IssueSite(CallSite(fileID: fileID, filePath: filePath, line: line, column: column)),
    leftoverWork: leftoverWork,
    body
  )
}

extension TestScheduler {
  /// Runs `body` as a test's own scope on this (fresh) scheduler: ``TestScheduler/current``, and
  /// `Environment.current`'s `scheduler` and `clock`, for the time of a virtual-time scope. The
  /// body of both `@Test(.virtualTime)` and ``withVirtualTime(now:leftoverWork:isolation:fileID:filePath:line:column:_:)``.
  func withTestScope<R, Failure: Error>(
    at site: IssueSite,
    leftoverWork: LeftoverWork,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (TestScheduler) async throws(Failure) -> R
  ) async throws(Failure) -> R {
    let result: Result<R, Failure> = await Self.$scoped.withValue(self) {
      await withEnvironment({ $0.useVirtualTime(of: self) }) {
        await withScope(at: site, leftoverWork: leftoverWork) { () async -> Result<R, Failure> in
          do throws(Failure) {
            return .success(try await body(self))
          } catch {
            return .failure(error)
          }
        }
      }
    }
    return try result.get()
  }
}
