import Effects
import Testing

@Suite struct CallSiteTests {
  @Test func describesItselfAsFileAndLine() {
    let callSite = CallSite(fileID: "App/Search.swift", filePath: "/src/App/Search.swift", line: 42, column: 7)
    #expect(callSite.description == "App/Search.swift:42")
  }

  @Test func defaultsToTheCallersLocation() {
    let callSite = CallSite()
    #expect(callSite.fileID.description == "EffectsTests/CallSiteTests.swift")
    #expect(callSite.line == 11)
  }

  @Test func equalCallSitesAreEqualAndHashAlike() {
    let a = CallSite(fileID: "A/B.swift", filePath: "/A/B.swift", line: 1, column: 2)
    let b = CallSite(fileID: "A/B.swift", filePath: "/A/B.swift", line: 1, column: 2)
    let c = CallSite(fileID: "A/B.swift", filePath: "/A/B.swift", line: 2, column: 2)
    #expect(a == b)
    #expect(Set([a, b, c]).count == 2)
    #expect(a != c)
  }
}
