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
  /// buffer's name does, in Punycode (a file's name has a dot), for the module of the frame that
  /// ran it, decoded whole or not at all. (The first name is a real buffer's, read on this
  /// machine; the others are encoded the same way.)
  @Test(arguments: [
    (
      "/tmp/swift-generated-sources/@__swiftmacro_12EffectsTests0026ZProbeExitTestsswift_DsAGgfMX6_27_7requirefMf_.swift",
      "EffectsTests", "EffectsTests/ZProbeExitTests.swift"
    ),
    (
      "@__swiftmacro_12EffectsTests0029BootstrapExitTestsswift_tAFJhfMX22_30_7requirefMf_.swift", "EffectsTests",
      "EffectsTests/BootstrapExitTests.swift"
    ),
    ("@__swiftmacro_5MyApp0025IssueMessageswift_njFCfDbfMX1_2_.swift", "MyApp", "MyApp/Issue+Message.swift"),
    ("@__swiftmacro_5MyApp0018Cafswift_dBaEACCGcfMX1_2_.swift", "MyApp", "MyApp/Café.swift"),
    ("@__swiftmacro_5MyApp0025my_swift_utilsswift_jqFBgfMX1_2_.swift", "MyApp", "MyApp/my_swift_utils.swift"),
    // Another module's buffer; a name not in Punycode; one longer than the buffer; digits that do
    // not decode; a name that is not a Swift file's.
    ("@__swiftmacro_12EffectsTests0026ZProbeExitTestsswift_DsAGgfMX6_27_.swift", "MyApp", nil),
    ("@__swiftmacro_5MyApp5ModelfMX1_2_.swift", "MyApp", nil),
    ("@__swiftmacro_5MyApp0099Modelswift_eCJAc.swift", "MyApp", nil),
    ("@__swiftmacro_5MyApp0016Modelswift_zzzzzfMX1_2_.swift", "MyApp", nil),
    ("@__swiftmacro_5MyApp0010Modelswift_fMX1_2_.swift", "MyApp", nil),
    ("/app/Tests/AppTests/SearchModelTests.swift", "AppTests", nil),
  ])
  func aMacrosFileIsReadFromItsBufferWhereNoTestNamesIt(buffer: String, module: String, fileID: String?) {
    #expect(ReadSite.macroFile(inBuffer: buffer, module: module)?.fileID == fileID)
  }

  /// Digits that would overflow, a delimiter with nothing after it, code points past Unicode: no
  /// name, and no trap.
  @Test func punycodeThatDoesNotDecodeGivesNoName() {
    #expect(ReadSite.punycodeDecoded("Model_" + String(repeating: "J", count: 200)) == nil)
    #expect(ReadSite.punycodeDecoded("J") == nil)
    #expect(ReadSite.punycodeDecoded("Modelswift_eCJAc") == "Model.swift")
    #expect(ReadSite.punycodeDecoded("Modelswift_") == "Modelswift")
    // 20,000 strings of the mangling's alphabet, from a fixed seed: each decodes or gives nil.
    let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
    var seed: UInt64 = 42
    func next() -> Int {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(seed >> 33)
    }
    var decoded = 0
    for _ in 0..<20_000 {
      let text = String((0..<(next() % 40)).map { _ in alphabet[next() % alphabet.count] })
      if ReadSite.punycodeDecoded(text) != nil { decoded += 1 }
    }
    #expect(decoded > 0)
  }
}
