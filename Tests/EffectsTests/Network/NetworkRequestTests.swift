import Effects
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

struct NetworkRequestTests {
  @Test func theSameRequestBuiltTwoWaysIsOneValue() {
    var urlRequest = URLRequest(url: URL(string: "me", relativeTo: URL(string: "https://api.example.com/")!)!)
    urlRequest.httpMethod = "post"
    urlRequest.httpBody = Data()
    urlRequest.timeoutInterval = 3
    #expect(NetworkRequest(urlRequest) == .post("https://api.example.com/me"))
    #expect(NetworkRequest(URLRequest(url: URL(string: "https://a.example")!)).method == "GET")
  }

  @Test func headerNamesCompareWithoutCaseAndValuesWithIt() {
    let url = "https://api.example.com/me"
    let lower = NetworkRequest.get(url, headers: ["authorization": "Bearer abc"])
    let upper = NetworkRequest.get(url, headers: ["Authorization": "Bearer abc"])
    #expect(lower == upper)
    #expect(Set([lower, upper]).count == 1)
    #expect(lower != NetworkRequest.get(url, headers: ["Authorization": "Bearer ABC"]))
    #expect(lower != NetworkRequest.get(url))
  }

  @Test func aBodySentAsAStreamIsReadIntoTheRequest() {
    let bytes = Data((0..<40_000).map { UInt8(truncatingIfNeeded: $0) })
    var request = URLRequest(url: URL(string: "https://api.example.com/upload")!)
    request.httpMethod = "PUT"
    request.httpBodyStream = InputStream(data: bytes)
    let value = NetworkRequest(request)
    #expect(value.body == bytes)
    #expect(value == NetworkRequest(method: "PUT", url: URL(string: "https://api.example.com/upload")!, body: bytes))
  }

  @Test func aRequestRoundTripsThroughURLRequest() {
    let request = NetworkRequest.put(
      "https://api.example.com/profiles/7",
      headers: ["Content-Type": "application/json", "Authorization": "Bearer abc"],
      body: Data(#"{"name":"Ada"}"#.utf8)
    )
    #expect(NetworkRequest(request.urlRequest) == request)
    #expect(request.urlRequest.value(forHTTPHeaderField: "authorization") == "Bearer abc")
  }

  @Test func readsAsOneLineWithSortedHeadersAndItsBody() {
    let request = NetworkRequest.post(
      "https://api.example.com/login",
      headers: ["X-B": "2", "Content-Type": "application/json"],
      body: Data(#"{"user":"ada"}"#.utf8)
    )
    #expect(
      request.description
        == #"POST https://api.example.com/login ["Content-Type": "application/json", "X-B": "2"] body: "{\"user\":\"ada\"}""#
    )
    #expect(NetworkRequest.delete("https://a.example/x").description == "DELETE https://a.example/x")
  }

  @Test func aStringThatIsNotAURLAsItStandsIsPercentEncoded() {
    #expect(NetworkRequest.get("https://a.example/a b").url.absoluteString == "https://a.example/a%20b")
  }

  @Test func headersAreFoundWhateverTheirCase() {
    let response = NetworkResponse.json("{}")
    #expect(response.value(forHeader: "content-type") == "application/json")
    #expect(NetworkRequest.get("https://a.example", headers: ["Accept": "*/*"]).value(forHeader: "ACCEPT") == "*/*")
  }

  @Test func aResponseSaysWhetherItIsASuccessAndDecodesItsBody() throws {
    struct Profile: Decodable, Equatable { var name: String }
    #expect(NetworkResponse.ok().isSuccess)
    #expect(!NetworkResponse.status(404).isSuccess)
    #expect(!NetworkResponse.status(199).isSuccess)
    #expect(try NetworkResponse.json(#"{"name":"Ada"}"#).decode(Profile.self) == Profile(name: "Ada"))
    #expect(NetworkResponse.status(500, "down").description == #"500 body: "down""#)
  }

  @Test func aStatusErrorNamesTheRequestAndTheStatus() {
    let error = NetworkStatusError(request: .get("https://a.example/x"), response: .status(404))
    #expect(error.description == "GET https://a.example/x answered 404, not a success (200..<300)")
    #expect(error.localizedDescription == error.description)
  }
}
