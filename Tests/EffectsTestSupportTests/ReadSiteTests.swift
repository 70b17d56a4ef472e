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

  /// In an exit test's child process no running test names the file of a macro's expansion: the
  /// buffer's name does, for the module of the frame that ran it, and nothing else is read from it.
  @Test(arguments: [
    (
      "/tmp/swift-generated-sources/@__swiftmacro_12EffectsTests0026BootstrapExitTestsswift_DsAGgfMX6_27_7requirefMf_.swift",
      "EffectsTests", "EffectsTests/BootstrapExitTests.swift"
    ),
    ("@__swiftmacro_5MyApp09Modelswift_aBcfMX1_2_.swift", "MyApp", "MyApp/Model.swift"),
    // Another module's buffer, a name with no file, a file of characters no file name mangles to.
    ("@__swiftmacro_12EffectsTests0026BootstrapExitTestsswift_Ds.swift", "MyApp", nil),
    ("@__swiftmacro_5MyApp_DsAGgfMX6_27_.swift", "MyApp", nil),
    ("@__swiftmacro_5MyApp0swift_Ds.swift", "MyApp", nil),
    ("@__swiftmacro_5MyApp09Mo/delswift_Ds.swift", "MyApp", nil),
    ("/app/Tests/AppTests/SearchModelTests.swift", "AppTests", nil),
  ])
  func aMacrosFileIsReadFromItsBufferWhereNoTestNamesIt(buffer: String, module: String, fileID: String?) {
    #expect(ReadSite.macroFile(inBuffer: buffer, module: module)?.fileID == fileID)
  }
}
