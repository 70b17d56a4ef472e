import Effects
import Foundation
import Testing

/// A `NetworkTape` on its own: its file, read back exactly; redaction; which requests an exchange
/// answers; and every way a file can be wrong, each with its exact message.
@Suite struct NetworkTapeTests {
  private static let me = "https://api.example.com/me"

  private static func temporaryFile(_ name: String = "tape.json") -> URL {
    FileManager.default.temporaryDirectory
      .appendingPathComponent("NetworkTapeTests-\(UUID().uuidString)", isDirectory: true)
      .appendingPathComponent(name)
  }

  private static let sample = NetworkTape([
    .init(
      request: .post(
        "https://api.example.com/login",
        headers: ["Content-Type": "application/json"],
        body: Data(#"{"user":"ada","password":"hunter2"}"#.utf8)
      ),
      response: .json(#"{"id": 12345678901234567, "name": "Ada", "ratio": 0.25, "tags": ["a", "b"], "admin": false}"#),
      latency: .microseconds(42_500)
    ),
    .init(request: .get(me), response: .ok("plain text"), latency: .zero),
    .init(request: .get("https://api.example.com/logo"), response: NetworkResponse(body: Data([0xFF, 0x00, 0x7F]))),
  ])

  // MARK: The file

  @Test func aTapeIsReadBackAsItWasWrittenOnceItsJSONBodiesAreInTheirStableForm() throws {
    let file = Self.temporaryFile()
    let stable = NetworkTape(Self.sample.exchanges.map { NetworkTape.Redaction.none.apply(to: $0) })
    try stable.write(to: file)
    #expect(try NetworkTape(contentsOf: file) == stable)
    // Bodies decode to the same values as the originals.
    struct Login: Decodable, Equatable {
      var id: Int64
      var name: String
      var ratio: Double
      var tags: [String]
      var admin: Bool
    }
    let original = try Self.sample.exchanges[0].response.decode(Login.self)
    #expect(try NetworkTape(contentsOf: file).exchanges[0].response.decode(Login.self) == original)
    #expect(original.id == 12_345_678_901_234_567)
  }

  @Test func theFileIsPrettyJSONWithKeysSortedAndJSONBodiesAsJSON() throws {
    let tape = NetworkTape([
      .init(
        request: .get(Self.me, headers: ["Accept": "application/json"]),
        response: .json(#"{"name":"Ada","id":1}"#),
        latency: .microseconds(1_500)
      )
    ])
    let text = String(decoding: tape.fileContents, as: UTF8.self)
    #expect(
      text == """
        {
          "exchanges" : [
            {
              "latencyMilliseconds" : 1.5,
              "request" : {
                "headers" : {
                  "Accept" : "application/json"
                },
                "method" : "GET",
                "url" : "https://api.example.com/me"
              },
              "response" : {
                "headers" : {
                  "Content-Type" : "application/json"
                },
                "json" : {
                  "id" : 1,
                  "name" : "Ada"
                },
                "status" : 200
              }
            }
          ],
          "format" : 1
        }

        """
    )
  }

  @Test func textAndBytesAreKeptAsTextAndBase64() throws {
    let text = String(decoding: Self.sample.fileContents, as: UTF8.self)
    #expect(text.contains(#""text" : "plain text""#))
    #expect(text.contains(#""base64" : "/wB/""#))
  }

  @Test(arguments: [
    #"{"id":12345678901234567890}"#,
    #"{"id":-9223372036854775809}"#,
    #"{"pi":3.14159265358979323846264338327950288}"#,
    #"{"huge":1e400}"#,
  ])
  func aJSONBodyWhoseNumbersWouldNotSurviveIsKeptByteForByte(json: String) throws {
    let exchange = NetworkTape.Redaction.standard.apply(
      to: .init(request: .get(Self.me), response: NetworkResponse(body: Data(json.utf8)))
    )
    #expect(exchange.response.body == Data(json.utf8))
    let file = Self.temporaryFile()
    try NetworkTape([exchange]).write(to: file)
    #expect(try NetworkTape(contentsOf: file).exchanges[0].response.body == Data(json.utf8))
  }

  @Test func aTextBodyIsKeptByteForByteEvenWithAByteOrderMark() throws {
    let body = Data([0xEF, 0xBB, 0xBF]) + Data("hello".utf8)
    let file = Self.temporaryFile()
    try NetworkTape([.init(request: .get(Self.me), response: NetworkResponse(body: body))]).write(to: file)
    #expect(try NetworkTape(contentsOf: file).exchanges[0].response.body == body)
  }

  // MARK: Redaction

  @Test func aFormBodyIsRedactedPairByPairAndItsRecordedValueMatchesAny() {
    let recorded = NetworkTape.Redaction.standard.adding(bodyFields: ["password"]).apply(
      to: .init(
        request: .post(Self.me, body: Data("grant_type=password&username=ada&password=s3cr3t".utf8)),
        response: .ok()
      )
    )
    #expect(
      String(decoding: recorded.request.body, as: UTF8.self)
        == "grant_type=password&username=ada&password=%3Credacted%3E"
    )
    #expect(recorded.answers(.post(Self.me, body: Data("grant_type=password&username=ada&password=other".utf8))))
    #expect(!recorded.answers(.post(Self.me, body: Data("grant_type=refresh&username=ada&password=other".utf8))))
  }

  @Test(arguments: [
    Data([0xEF, 0xBB, 0xBF]) + Data(#"{"token":"s3cr3t"}"#.utf8),
    Data(#"{"token":"s3cr3t", "broken": }"#.utf8),
    Data("token: s3cr3t".utf8),
  ])
  func aBodyNamingARedactedFieldNeverReachesTheFileWhateverItsShape(body: Data) throws {
    let recorded = NetworkTape.Redaction.standard.adding(bodyFields: ["token"]).apply(
      to: .init(request: .get(Self.me), response: NetworkResponse(body: body))
    )
    let file = Self.temporaryFile()
    try NetworkTape([recorded]).write(to: file)
    #expect(!(try String(contentsOf: file, encoding: .utf8)).contains("s3cr3t"))
  }

  @Test func aBodyRedactedWholeMatchesAnyBody() {
    let recorded = NetworkTape.Redaction.standard.adding(bodyFields: ["token"]).apply(
      to: .init(request: .post(Self.me, body: Data("token: s3cr3t".utf8)), response: .ok())
    )
    #expect(recorded.request.body == Data("<redacted>".utf8))
    #expect(recorded.answers(.post(Self.me, body: Data("token: another".utf8))))
  }

  @Test func theStandardRedactionHidesCredentialsInHeaderFieldsWhateverTheirCase() {
    let exchange = NetworkTape.Exchange(
      request: .get(Self.me, headers: ["authorization": "Bearer secret", "Cookie": "session=1", "Accept": "*/*"]),
      response: NetworkResponse(
        headers: ["Set-Cookie": "session=2", "Content-Type": "text/plain"],
        body: Data("hi".utf8)
      )
    )
    let redacted = NetworkTape.Redaction.standard.apply(to: exchange)
    #expect(
      redacted.request.headers == ["authorization": "<redacted>", "Cookie": "<redacted>", "Accept": "*/*"]
    )
    #expect(redacted.response.headers == ["Set-Cookie": "<redacted>", "Content-Type": "text/plain"])
  }

  @Test func bodyFieldsAreRedactedAtAnyDepth() {
    let exchange = NetworkTape.Exchange(
      request: .post(Self.me, body: Data(#"{"user":"ada","password":"hunter2"}"#.utf8)),
      response: .json(#"{"session":{"token":"abc","expires":3},"items":[{"token":"def"}]}"#)
    )
    let redacted = NetworkTape.Redaction.standard.adding(bodyFields: ["password", "token"]).apply(to: exchange)
    #expect(String(decoding: redacted.request.body, as: UTF8.self) == #"{"password":"<redacted>","user":"ada"}"#)
    #expect(
      String(decoding: redacted.response.body, as: UTF8.self)
        == #"{"items":[{"token":"<redacted>"}],"session":{"expires":3,"token":"<redacted>"}}"#
    )
  }

  @Test func queryItemsAreRedactedAndTheirRecordedValueMatchesAny() throws {
    let recorded = NetworkTape.Redaction.standard.adding(queryItems: ["api_key"]).apply(
      to: .init(request: .get("https://api.example.com/weather?city=Paris&api_key=s3cr3t"), response: .ok())
    )
    #expect(recorded.request.url.absoluteString == "https://api.example.com/weather?city=Paris&api_key=%3Credacted%3E")
    let file = Self.temporaryFile()
    try NetworkTape([recorded]).write(to: file)
    #expect(!(try String(contentsOf: file, encoding: .utf8)).contains("s3cr3t"))
    #expect(recorded.answers(.get("https://api.example.com/weather?city=Paris&api_key=other")))
    #expect(!recorded.answers(.get("https://api.example.com/weather?city=Rome&api_key=other")))
    #expect(!recorded.answers(.get("https://api.example.com/weather?city=Paris")))
    #expect(!recorded.answers(.get("https://api.example.com/forecast?city=Paris&api_key=other")))
  }

  // MARK: Matching

  @Test func anExchangeAnswersTheSameRequestWithJSONComparedAsJSONAndRedactedValuesMatchingAny() {
    let recorded = NetworkTape.Redaction.standard.adding(bodyFields: ["password"]).apply(
      to: .init(
        request: .post(
          Self.me,
          headers: ["Authorization": "Bearer old"],
          body: Data(#"{"user":"ada","password":"old"}"#.utf8)
        ),
        response: .ok()
      )
    )
    let sent = NetworkRequest.post(
      Self.me,
      headers: ["authorization": "Bearer new", "Accept": "*/*"],
      body: Data(#"{ "password": "new", "user": "ada" }"#.utf8)
    )
    #expect(recorded.answers(sent))
    #expect(
      !recorded.answers(
        .post(Self.me, headers: ["Authorization": "x"], body: Data(#"{"user":"bob","password":"x"}"#.utf8))
      )
    )
    #expect(!recorded.answers(.post(Self.me, body: Data(#"{"user":"ada","password":"x"}"#.utf8))))
    #expect(!recorded.answers(.put(Self.me, headers: ["Authorization": "x"], body: sent.body)))
  }

  // MARK: Files that are wrong

  @Test func aMissingFileIsNamed() {
    let file = Self.temporaryFile()
    #expect(throws: NetworkTapeError(file: file, problem: .missing)) { try NetworkTape(contentsOf: file) }
    #expect("\(NetworkTapeError(file: file, problem: .missing))" == "There is no network tape at \(file.path).")
  }

  @Test func aFileThatIsNotJSONIsCorruptAtTheTopLevel() throws {
    let file = Self.temporaryFile()
    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data("not json".utf8).write(to: file)
    let error = try #require(throws: NetworkTapeError.self) { try NetworkTape(contentsOf: file) }
    guard case .corrupt(let detail) = error.problem else {
      Issue.record("expected a corrupt tape, got \(error)")
      return
    }
    #expect(detail.hasPrefix("the top level: "))
    #expect("\(error)".hasPrefix("The network tape at \(file.path) is not a tape: the top level: "))
    #expect(
      "\(error)".hasSuffix(
        """
        A tape is the JSON that NetworkTape.write(to:) writes, {"format": 1, "exchanges": [{"request": …, \
        "response": …, "latencyMilliseconds": …}]}: fix the file, or record it again.
        """
      )
    )
  }

  @Test(arguments: [
    (
      #"{"format":1,"exchanges":[{"request":{"method":"GET","url":"https://a.b"},"latencyMilliseconds":0}]}"#,
      "exchanges[0].response: the field is missing"
    ),
    (
      #"{"format":1,"exchanges":[{"request":{"method":"GET","url":"nowhere"},"response":{"status":200},"latencyMilliseconds":0}]}"#,
      #"exchanges[0].request.url: "nowhere" is not an absolute URL"#
    ),
    (
      #"{"format":1,"exchanges":[{"request":{"method":"GET","url":"https://a.b"},"response":{"status":42},"latencyMilliseconds":0}]}"#,
      "exchanges[0].response.status: 42 is not an HTTP status (100 to 599)"
    ),
    (
      #"{"format":1,"exchanges":[{"request":{"method":"GET","url":"https://a.b"},"response":{"status":200,"base64":"%%"},"latencyMilliseconds":0}]}"#,
      "exchanges[0].response.base64: not base64"
    ),
    (
      #"{"format":1,"exchanges":[{"request":{"method":"GET","url":"https://a.b","text":"a","base64":"YQ=="},"response":{"status":200},"latencyMilliseconds":0}]}"#,
      "exchanges[0].request: a body is one of json, text or base64, and this one has text and base64"
    ),
    (
      #"{"format":1,"exchanges":[{"request":{"method":"GET","url":"https://a.b"},"response":{"status":200},"latencyMilliseconds":-1}]}"#,
      "exchanges[0].latencyMilliseconds: -1.0 is not a latency (0 or more)"
    ),
  ])
  func aFieldThatMakesNoSenseIsNamedWithItsPlace(json: String, detail: String) throws {
    let file = Self.temporaryFile()
    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(json.utf8).write(to: file)
    #expect(throws: NetworkTapeError(file: file, problem: .corrupt(detail))) { try NetworkTape(contentsOf: file) }
  }

  @Test func aTapeOfANewerFormatIsRefusedBeforeItIsRead() throws {
    let file = Self.temporaryFile()
    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(#"{"format":2,"cassettes":[]}"#.utf8).write(to: file)
    let error = NetworkTapeError(file: file, problem: .newerFormat(2))
    #expect(throws: error) { try NetworkTape(contentsOf: file) }
    #expect(
      "\(error)" == """
        The network tape at \(file.path) is of format 2, newer than format 1, the newest this version of \
        swift-effects reads. Update swift-effects, or record the tape again with this version.
        """
    )
  }

  @Test func aFileThatCannotBeWrittenIsNamed() throws {
    // A folder where the tape's folder should be is a file: nothing can be made inside it.
    let blocker = Self.temporaryFile("blocker")
    try FileManager.default.createDirectory(at: blocker.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data().write(to: blocker)
    let file = blocker.appendingPathComponent("tape.json")
    let error = try #require(throws: NetworkTapeError.self) { try Self.sample.write(to: file) }
    #expect(error.file == file)
    guard case .unwritable = error.problem else {
      Issue.record("expected an unwritable tape, got \(error)")
      return
    }
    #expect("\(error)".hasPrefix("The network tape at \(file.path) cannot be written: "))
    #expect("\(error)".hasSuffix(". Record it into a folder this process can write to."))
  }

  // MARK: Files that say two things

  private static func problem(reading text: String) throws -> NetworkTapeError.Problem? {
    let file = temporaryFile()
    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: file)
    do {
      _ = try NetworkTape(contentsOf: file)
      return nil
    } catch {
      return error.problem
    }
  }

  @Test func aKeyWrittenTwiceIsAnErrorNamingTheLineAndThePlace() throws {
    #expect(
      try Self.problem(reading: "{\n  \"format\": 1,\n  \"exchanges\": [],\n  \"exchanges\": [{}]\n}\n")
        == .corrupt(
          "line 4, the top level: the key \"exchanges\" is written twice in one object, and a reader would keep one of the two values"
        )
    )
    #expect(
      try Self.problem(
        reading: #"{"format":1,"exchanges":[{"request":{"method":"GET","url":"https://a.b","method":"POST"}}]}"#
      )
        == .corrupt(
          "line 1, exchanges[0].request: the key \"method\" is written twice in one object, and a reader would keep one of the two values"
        )
    )
    // The same key, escaped another way.
    #expect(
      try Self.problem(reading: #"{"format":1,"exchanges":[],"exch\u0061nges":[]}"#)
        == .corrupt(
          "line 1, the top level: the key \"exchanges\" is written twice in one object, and a reader would keep one of the two values"
        )
    )
  }

  @Test func aFileNestedTooDeepIsRefusedAtOnceAndAnErrorQuotesNoMoreThanItsBound() throws {
    let deep = String(repeating: "[", count: 50_000) + String(repeating: "]", count: 50_000)
    #expect(
      try Self.problem(reading: #"{"format":1,"exchanges":[{"response":{"json":\#(deep)}}]}"#)
        == .corrupt("line 1: JSON nested deeper than 256 levels, which a tape's reader does not read")
    )
    let long = String(repeating: "x", count: 1_000_000)
    let problem = try Self.problem(
      reading:
        #"{"format":1,"exchanges":[{"request":{"method":"GET","url":"\#(long)"},"response":{"status":200},"latencyMilliseconds":0}]}"#
    )
    let file = Self.temporaryFile()
    #expect("\(NetworkTapeError(file: file, problem: problem ?? .missing))".count < 1_000)
  }

  @Test func anUnknownFieldOrAHeaderNamedTwiceIsAnError() throws {
    let exchange = #"{"request":{"method":"GET","url":"https://a.b"},"response":{"status":200},"latencyMs":5}"#
    #expect(
      try Self.problem(reading: #"{"format":1,"exchanges":[\#(exchange)]}"#)
        == .corrupt(
          "exchanges[0]: an unknown field \"latencyMs\" (an exchange has latencyMilliseconds, request, response)"
        )
    )
    #expect(
      try Self.problem(
        reading:
          #"{"format":1,"exchanges":[{"request":{"method":"GET","url":"https://a.b","headers":{"Accept":"a","accept":"b"}},"response":{"status":200},"latencyMilliseconds":0}]}"#
      )
        == .corrupt(
          "exchanges[0].request.headers: \"Accept\" and \"accept\" name one header field, whose case does not matter: keep one"
        )
    )
    #expect(
      try Self.problem(reading: #"{"format":1,"exchanges":[],"comment":"x"}"#)
        == .corrupt("the top level: an unknown field \"comment\" (a tape has exchanges, format)")
    )
  }
}
