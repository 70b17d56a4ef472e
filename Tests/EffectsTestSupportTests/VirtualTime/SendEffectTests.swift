import Effects
import EffectsTestHelpers
import EffectsTestSupport
import Foundation
import Testing

/// `.send(request)`: a fire-and-forget request, performed by the live interpreter through the
/// environment's network in a task of its own; what goes wrong reaches `onFailure`.
@Suite struct SendEffectTests {
  private static let logout = NetworkRequest.post(
    "https://api.example.com/logout",
    headers: ["Authorization": "Bearer abc"]
  )

  @Test func describesItselfWithTheRequest() {
    #expect(
      Effect.send(Self.logout).description
        == #"send(POST https://api.example.com/logout ["Authorization": "Bearer abc"])"#
    )
    #expect(
      Effect.send(.put("https://a.example/x", body: Data([0xFF, 0xFE]))).description
        == "send(PUT https://a.example/x body: 2 bytes)"
    )
  }

  @Test(.virtualTime) func theInterpreterSendsTheRequestWithoutWaitingForTheResponse() async throws {
    let scheduler = TestScheduler.current
    let network = StubNetwork()
    network.stub(Self.logout, .ok(), after: .seconds(1))
    var environment = Environment.current
    environment.network = network
    let failures = Recorder<String>()

    try Interpreter.live(environment: environment) { failures.append("\($0)") }.perform([.send(Self.logout)])
    await scheduler.advance(by: .zero)
    network.assertRequests([Self.logout])
    await scheduler.advance(by: .seconds(1))
    #expect(failures.values.isEmpty)
  }

  @Test(.virtualTime) func aStatusThatIsNotASuccessReachesOnFailureAsANetworkStatusError() async throws {
    let network = StubNetwork()
    network.stub(Self.logout, .status(500, "database down"))
    var environment = Environment.current
    environment.network = network
    let failures = Recorder<InterpreterError<Effect>>()

    try Interpreter.live(environment: environment) { failures.append($0) }.perform([.send(Self.logout)])
    await TestScheduler.current.advance(by: .zero)

    let failure = try #require(failures.values.first)
    #expect(failures.values.count == 1)
    #expect(failure.effect == .send(Self.logout))
    #expect(
      failure.underlying as? NetworkStatusError
        == NetworkStatusError(request: Self.logout, response: .status(500, "database down"))
    )
    #expect(
      failure.description == #"""
        effect at index 0 of 1 failed: send(POST https://api.example.com/logout ["Authorization": "Bearer abc"])
          error: POST https://api.example.com/logout answered 500, not a success (200..<300): "database down"
          not performed: none (it was the last)
        """#
    )
  }

  @Test(.virtualTime) func aThrownErrorReachesOnFailureAsItIs() async throws {
    let network = StubNetwork()
    network.stub(Self.logout, throwing: URLError(.notConnectedToInternet))
    var environment = Environment.current
    environment.network = network
    let failures = Recorder<InterpreterError<Effect>>()

    try Interpreter.live(environment: environment) { failures.append($0) }.perform([.send(Self.logout)])
    await TestScheduler.current.advance(by: .zero)

    #expect(failures.values.map { ($0.underlying as? URLError)?.code } == [.notConnectedToInternet])
  }

  @Test func theRecordingInterpreterRecordsASendAsAnyOtherEffect() throws {
    let recorder = RecordingInterpreter<Effect>()
    try recorder.interpreter.perform([.send(Self.logout), .print("bye")])
    recorder.assertEffects([.send(Self.logout), .print("bye")])
  }
}
