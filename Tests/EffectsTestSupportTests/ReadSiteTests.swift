@testable import EffectsTestSupport
import Testing

/// Which sources can be the place of a report: the code under test, never this library's, nor a
/// dependency's checked-out source, which the user cannot change.
@Suite struct ReadSiteTests {
  @Test(arguments: [
    ("/app/.build/checkouts/swift-async-algorithms/Sources/AsyncAlgorithms/Debounce/DebounceStorage.swift", true),
    ("/Users/me/Library/Developer/Xcode/DerivedData/App-x/SourcePackages/checkouts/lib/Sources/Lib/A.swift", true),
    ("/app/Sources/App/SearchModel.swift", false),
    ("/app/Tests/AppTests/SearchModelTests.swift", false),
  ])
  func aDependencysCheckedOutSourceIsNotTheCodeUnderTest(path: String, isDependency: Bool) {
    #expect(ReadSite.isDependencySource(path) == isDependency)
  }
}
