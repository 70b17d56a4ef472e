import Effects
import EffectsTestSupport
import Testing

@Suite struct FixtureBundleTests {
  let bundle = FixtureBundle([
    "number.txt": "/fixtures/number.txt",
    "user.json": "/fixtures/user.json",
    "README": "/fixtures/README",
  ])

  @Test func findsAResourceByNameAndTypeLikeBundle() {
    #expect(bundle.path(forResource: "number", ofType: "txt") == "/fixtures/number.txt")
    #expect(bundle.path(forResource: "number", ofType: ".txt") == "/fixtures/number.txt")
  }

  @Test func findsAResourceWhoseNameCarriesItsExtension() {
    #expect(bundle.path(forResource: "number.txt", ofType: nil) == "/fixtures/number.txt")
    #expect(bundle.path(forResource: "number.txt", ofType: "") == "/fixtures/number.txt")
    #expect(bundle.path(forResource: "README", ofType: nil) == "/fixtures/README")
  }

  @Test func answersNilForAnUnknownResource() {
    #expect(bundle.path(forResource: "missing", ofType: "txt") == nil)
    #expect(bundle.path(forResource: "number", ofType: "json") == nil)
    #expect(bundle.path(forResource: "number.txt", ofType: "txt") == nil)
    #expect(FixtureBundle([:]).path(forResource: "number.txt", ofType: nil) == nil)
  }

  @Test func aNilNameFindsTheFirstResourceOfThatType() {
    #expect(bundle.path(forResource: nil, ofType: "json") == "/fixtures/user.json")
    #expect(bundle.path(forResource: nil, ofType: "png") == nil)
    #expect(bundle.path(forResource: nil, ofType: nil) == nil)
  }

  @Test func feedsAFunctionThatReadsTheBundle() throws {
    var environment = Environment.test()
    environment.bundle = bundle
    environment.fileReader = InMemoryFileSystem(["/fixtures/number.txt": "123"])
    let path = try #require(environment.bundle.path(forResource: "number.txt", ofType: nil))
    #expect(try environment.fileReader.string(atPath: path) == "123")
  }
}
