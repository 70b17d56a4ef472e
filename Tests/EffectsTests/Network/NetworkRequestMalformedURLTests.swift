import Effects
import EffectsTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request made from a string that is not a URL is reported at the line that made it, and keeps
/// the string. Before, `.get("")` and `.get("http://[::1")` both became `about:blank` and compared
/// equal, so a stub for one answered the other.
struct NetworkRequestMalformedURLTests {
  /// What a factory reports for `string`, at `line` of this file.
  private static func notAURL(_ factory: String, _ string: String, line: Int) -> CapturedIssue {
    CapturedIssue(
      """
      NetworkRequest.\(factory)(_:) was given \(String(reflecting: string)), which is not a URL. The request keeps the \
      string: it equals only a request made from the same string, and no server answers it. Pass an absolute URL, \
      such as "https://api.example.com/me".
      """,
      line: line
    )
  }

  @Test func everyFactoryReportsAStringThatIsNotAURLAtTheLineThatCalledIt() {
    let getLine = #line + 3
    let postLine = getLine + 1
    let (requests, issues) = withCapturedIssues {
      let get = NetworkRequest.get("http://[::1")
      let post = NetworkRequest.post("", body: Data("x".utf8))
      let put = NetworkRequest.put("http://[::1", headers: ["A": "1"])
      let delete = NetworkRequest.delete("")
      return [get, post, put, delete]
    }
    #expect(
      issues == [
        Self.notAURL("get", "http://[::1", line: getLine),
        Self.notAURL("post", "", line: postLine),
        Self.notAURL("put", "http://[::1", line: postLine + 1),
        Self.notAURL("delete", "", line: postLine + 2),
      ]
    )
    #expect(
      requests.map(\.description) == [
        #"GET "http://[::1" (not a URL)"#,
        #"POST "" (not a URL) body: "x""#,
        #"PUT "http://[::1" (not a URL) ["A": "1"]"#,
        #"DELETE "" (not a URL)"#,
      ]
    )
    #expect(requests.allSatisfy { $0.url.absoluteString != "about:blank" })
  }

  @Test func requestsFromStringsThatAreNotURLsEqualOnlyARequestFromTheSameString() {
    let (requests, issues) = withCapturedIssues {
      (
        empty: NetworkRequest.get(""),
        sameEmpty: NetworkRequest.get(""),
        bracket: NetworkRequest.get("http://[::1"),
        blank: NetworkRequest.get("about:blank"),
        local: NetworkRequest.get("http://[::1]")
      )
    }
    #expect(issues.count == 3, "each string that is not a URL, once per request made from it")
    #expect(requests.empty != requests.bracket, "before, both were about:blank")
    #expect(requests.empty != requests.blank)
    #expect(requests.bracket != requests.local)
    #expect(requests.empty == requests.sameEmpty, "a value equals a copy of itself")
    #expect(Set([requests.empty, requests.sameEmpty, requests.bracket, requests.blank, requests.local]).count == 4)
    // Sent, a request goes through URLRequest: it keeps the string on the way.
    #expect(NetworkRequest(requests.bracket.urlRequest) == requests.bracket)
    #expect(NetworkRequest(requests.bracket.urlRequest).description == #"GET "http://[::1" (not a URL)"#)
  }

  @Test func aStubForOneStringThatIsNotAURLNeverAnswersAnother() async throws {
    let scheduler = TestScheduler()
    try await scheduler.withVirtualTime {
      let networkLine = #line + 1
      let network = StubNetwork(scheduler: scheduler)
      let stubLine = #line + 2
      let issues = try await withCapturedIssues {
        network.stub(.get(""), .ok("empty"))
        let answered = try await network.send(.get(""))
        #expect(answered.text == "empty", "a request from the same string is the same request")
        await #expect(throws: StubNetworkError.self) { try await network.send(.get("http://[::1")) }
      }.issues
      #expect(
        Array(issues.dropLast()) == [
          Self.notAURL("get", "", line: stubLine),
          Self.notAURL("get", "", line: stubLine + 1),
          Self.notAURL("get", "http://[::1", line: stubLine + 3),
        ]
      )
      #expect(issues.last?.line == networkLine, "a request no stub matches is reported where the network was made")
      // The report is StubNetwork's own; what matters here is the diff: two strings, two URLs.
      let unmatched = try #require(issues.last?.message)
      #expect(unmatched.hasPrefix("StubNetwork got a request no stub matches: "))
      #expect(
        unmatched.contains(
          """

            + GET swift-effects-not-a-url:http://%5B::1
            - GET swift-effects-not-a-url:

          """
        )
      )
    }
  }
}
