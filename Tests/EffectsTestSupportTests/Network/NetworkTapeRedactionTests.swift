import Effects
import EffectsTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the default redaction keeps off the disk: each credential a reviewer expects to be left
/// out, recorded through a fake live network, then looked for in the bytes of the file.
@Suite struct NetworkTapeRedactionTests {
  /// One credential: where it travels, the exchange that carries it, and the secret it must not
  /// leave in the file.
  struct Credential: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var request: NetworkRequest
    var response: NetworkResponse = .ok()
    var secret = "hunter2-S3cr3t"

    init(_ description: String, request: NetworkRequest, response: NetworkResponse = .ok()) {
      testDescription = description
      self.request = request
      self.response = response
    }
  }

  private static let api = "https://api.example.com"
  private static let secret = "hunter2-S3cr3t"

  static let credentials: [Credential] = [
    Credential(
      "a password part beside a part that is not UTF-8, in a multipart request body",
      request: .post(
        "\(api)/upload",
        headers: ["Content-Type": "multipart/form-data; boundary=XyZ"],
        body: Data("--XyZ\r\nContent-Disposition: form-data; name=\"avatar\"\r\n\r\n".utf8)
          + Data([0xFF, 0xD8, 0xFF, 0x00, 0x80])
          + Data("\r\n--XyZ\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\n\(secret)\r\n--XyZ--\r\n".utf8)
      )
    ),
    Credential("the password of a URL's user info", request: .get("https://ada:\(secret)@api.example.com/me")),
    Credential(
      "user[password] in a request's form body",
      request: .post("\(api)/login", body: form("user[name]=ada&user[password]=\(secret)"))
    ),
    Credential(
      "a password in JSON inside a JSON string, in a request body",
      request: .post(
        "\(api)/graphql",
        headers: ["Content-Type": "application/json"],
        body: Data(#"{"query":"mutation SignIn","variables":"{\"user\":\"ada\",\"password\":\"\#(secret)\"}"}"#.utf8)
      )
    ),
    Credential(
      "Proxy-Authorization in a request",
      request: .get("\(api)/me", headers: ["Proxy-Authorization": "Basic \(secret)"])
    ),
    Credential(
      "Proxy-Authorization in a response",
      request: .get("\(api)/me"),
      response: NetworkResponse(headers: ["Proxy-Authorization": "Basic \(secret)"])
    ),
    Credential("X-API-Key in a request", request: .get("\(api)/me", headers: ["X-API-Key": secret])),
    Credential(
      "X-API-Key in a response",
      request: .get("\(api)/keys"),
      response: NetworkResponse(headers: ["X-API-Key": secret])
    ),
    Credential(
      "X-Auth-Token in a response",
      request: .post("\(api)/login"),
      response: NetworkResponse(headers: ["X-Auth-Token": secret])
    ),
    Credential("access_token in a query", request: .get("\(api)/me?access_token=\(secret)")),
    Credential("api_key in a query", request: .get("\(api)/weather?city=Paris&api_key=\(secret)")),
    Credential(
      "a password in a request's JSON body",
      request: .post("\(api)/login", body: Data(#"{"user":"ada","password":"\#(secret)"}"#.utf8))
    ),
    Credential(
      "a password in a request's form body",
      request: .post("\(api)/login", body: form("username=ada&password=\(secret)"))
    ),
    Credential(
      "a refresh_token in a request's form body",
      request: .post("\(api)/oauth/token", body: form("grant_type=refresh_token&refresh_token=\(secret)"))
    ),
    Credential(
      "OAuth access_token and refresh_token in a response's JSON body",
      request: .post("\(api)/oauth/token"),
      response: .json(
        #"{"access_token":"\#(secret)","expires_in":3600,"refresh_token":"\#(secret)x","token_type":"bearer"}"#
      )
    ),
    Credential(
      "a token nested in a response's JSON body, camel-cased",
      request: .get("\(api)/session"),
      response: .json(#"{"session":{"user":"ada","accessToken":"\#(secret)"}}"#)
    ),
    // Found by an attack on the first version.
    Credential(
      "a form body in UTF-16",
      request: .post(
        "\(api)/login",
        body: Data("user=bob&password=\(secret)".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
      )
    ),
    Credential(
      "a percent-encoded name in a body that is not quite a form",
      request: .post("\(api)/login", body: form("user=bob&pass%77ord=\(secret)\n"))
    ),
    Credential(
      "JSON in a JSON string that does not parse (a number past a Double)",
      request: .post("\(api)/graphql", body: Data(#"{"variables":"{\"password\":\"\#(secret)\",\"n\":1e400}"}"#.utf8))
    ),
    Credential(
      "a GraphQL inline argument",
      request: .post("\(api)/graphql", body: Data(#"{"query":"mutation { login(password: \"\#(secret)\") }"}"#.utf8))
    ),
    Credential(
      "GraphQL variables in a GET query",
      request: .get("\(api)/graphql?query=q&variables=%7B%22password%22%3A%22\(secret)%22%7D")
    ),
    Credential(
      "GraphQL variables in a form value",
      request: .post("\(api)/graphql", body: form("variables=%7B%22password%22%3A%22\(secret)%22%7D"))
    ),
    Credential(
      "a token in a Location header's query and fragment",
      request: .get("\(api)/authorize"),
      response: NetworkResponse(
        status: 302,
        headers: ["Location": "https://app.example.com/cb?access_token=\(secret)#id_token=\(secret)"]
      )
    ),
    Credential("a token in a URL's fragment", request: .get("\(api)/cb#access_token=\(secret)")),
    Credential("a token after a semicolon in a query", request: .get("\(api)/cb?x=1;access_token=\(secret)")),
    Credential("a session id in a URL's path", request: .get("\(api)/cart;jsessionid=\(secret)")),
    Credential(
      "plural names, auth and pass",
      request: .post(
        "\(api)/x",
        body: Data(
          #"{"passwords":["\#(secret)"],"refresh_tokens":["\#(secret)"],"auth":"\#(secret)","pass":"\#(secret)"}"#.utf8
        )
      )
    ),
    Credential(
      "a password named with a Cyrillic a",
      request: .post("\(api)/x", body: Data(#"{"pаssword":"\#(secret)"}"#.utf8))
    ),
  ]

  private static func form(_ text: String) -> Data { Data(text.utf8) }

  private static func temporaryTape() -> URL {
    FileManager.default.temporaryDirectory
      .appendingPathComponent("NetworkTapeRedactionTests-\(UUID().uuidString)", isDirectory: true)
      .appendingPathComponent("tape.json")
  }

  /// Records `request` answered by `response` through a fake live network, by default redaction,
  /// and answers the file's bytes, with what the code under test got.
  private static func record(
    _ request: NetworkRequest,
    answeredBy response: NetworkResponse,
    redacting redaction: NetworkTape.Redaction = .standard
  ) async throws -> (file: Data, received: NetworkResponse, tape: NetworkTape) {
    let file = temporaryTape()
    let live = StubNetwork()
    live.stub(request, response)
    let received = try await withVirtualTime { scheduler in
      let network = StubNetwork(tapeAt: file, mode: .record, live: live, redacting: redaction)
      let client = Task { try await network.send(request.urlRequest) }
      await scheduler.run()
      return try await client.value
    }
    return (try Data(contentsOf: file), received, try NetworkTape(contentsOf: file))
  }

  @Test(arguments: credentials)
  func theDefaultRedactionKeepsTheCredentialOffTheDisk(_ credential: Credential) async throws {
    let (file, received, _) = try await Self.record(credential.request, answeredBy: credential.response)
    let text = String(decoding: file, as: UTF8.self)
    #expect(!text.contains(Self.secret))
    #expect(file.range(of: Data(Self.secret.utf8)) == nil)
    #expect(text.contains("<redacted>") || text.contains("%3Credacted%3E"))
    // The code under test got the live response, secrets and all.
    #expect(received == credential.response)
  }

  @Test func aRedactedUserInfoMatchesAnyAndTheTapePlaysBack() async throws {
    let request = NetworkRequest.get("https://ada:\(Self.secret)@api.example.com/me")
    let tape = try await Self.record(request, answeredBy: .ok("me")).tape
    #expect(tape.exchanges[0].request.url.absoluteString == "https://%3Credacted%3E:%3Credacted%3E@api.example.com/me")
    #expect(tape.exchanges[0].answers(.get("https://bob:other@api.example.com/me")))
    #expect(!tape.exchanges[0].answers(.get("https://api.example.com/me")))
    #expect(!tape.exchanges[0].answers(.get("https://bob:other@api.example.com/you")))
  }

  @Test func aStringHoldingJSONIsRedactedInsideAndMatchedAsJSON() async throws {
    let request = NetworkRequest.post(
      "\(Self.api)/graphql",
      body: Data(#"{"variables":"{\"user\":\"ada\",\"password\":\"\#(Self.secret)\"}"}"#.utf8)
    )
    let exchange = try await Self.record(request, answeredBy: .ok()).tape.exchanges[0]
    #expect(
      String(decoding: exchange.request.body, as: UTF8.self)
        == #"{"variables":"{\"password\":\"<redacted>\",\"user\":\"ada\"}"}"#
    )
    #expect(
      exchange.answers(
        .post("\(Self.api)/graphql", body: Data(#"{"variables":"{\"user\":\"ada\",\"password\":\"x\"}"}"#.utf8))
      )
    )
    #expect(
      !exchange.answers(
        .post("\(Self.api)/graphql", body: Data(#"{"variables":"{\"user\":\"bob\",\"password\":\"x\"}"}"#.utf8))
      )
    )
  }

  @Test func aValueKeptByNameIsWrittenAndNothingElseIs() async throws {
    let request = NetworkRequest.get("\(Self.api)/feed?pageToken=next-42&access_token=\(Self.secret)")
    let response = NetworkResponse.json(#"{"nextPageToken":"page-43","sessionToken":"\#(Self.secret)"}"#)
    let exchange = try await Self.record(
      request,
      answeredBy: response,
      redacting: .standard.keeping(bodyFields: ["nextPageToken"], queryItems: ["pageToken"])
    ).tape.exchanges[0]
    #expect(exchange.request.url.absoluteString == "\(Self.api)/feed?pageToken=next-42&access_token=%3Credacted%3E")
    #expect(
      String(decoding: exchange.response.body, as: UTF8.self)
        == #"{"nextPageToken":"page-43","sessionToken":"<redacted>"}"#
    )
  }

  @Test func aNameAddedAfterBeingKeptIsRedactedAgain() {
    let redaction = NetworkTape.Redaction.standard.keeping(headers: ["X-Api-Key"]).adding(headers: ["x-api-key"])
    #expect(redaction.redacts(header: "X-API-KEY"))
    #expect(!NetworkTape.Redaction.standard.keeping(headers: ["x-api-key"]).redacts(header: "X-Api-Key"))
  }

  @Test(arguments: [
    ("Authorization", true), ("Proxy-Authorization", true), ("Cookie", true), ("Set-Cookie", true),
    ("X-API-Key", true), ("X-Auth-Token", true), ("X-Amz-Security-Token", true), ("Ocp-Apim-Subscription-Key", true),
    ("X-Client-Secret", true), ("X-Session-Id", true), ("Content-Type", false), ("Accept", false),
    ("Keep-Alive", false), ("X-Request-Id", false), ("ETag", false),
  ])
  func theStandardRedactionNamesCredentialHeaders(_ name: String, _ redacted: Bool) {
    #expect(NetworkTape.Redaction.standard.redacts(header: name) == redacted)
    #expect(!NetworkTape.Redaction.none.redacts(header: name))
  }

  @Test(arguments: [
    ("password", true), ("user[password]", true), ("user.password", true), ("Password", true),
    ("client_secret", true), ("refreshToken", true), ("id_token", true), ("api-key", true), ("jwt", true),
    ("user", false), ("name", false), ("tokens_used", false), ("key", false), ("primary_key", false),
    ("expires_in", false),
  ])
  func theStandardRedactionNamesCredentialFields(_ name: String, _ redacted: Bool) {
    #expect(NetworkTape.Redaction.standard.redacts(bodyField: name) == redacted)
  }

  @Test(arguments: [
    ("access_token", true), ("api_key", true), ("key", true), ("sig", true), ("X-Amz-Signature", true),
    ("X-Amz-Credential", true), ("q", false), ("page", false), ("city", false),
  ])
  func theStandardRedactionNamesCredentialQueryItems(_ name: String, _ redacted: Bool) {
    #expect(NetworkTape.Redaction.standard.redacts(queryItem: name) == redacted)
  }
}
