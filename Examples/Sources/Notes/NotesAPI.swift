public import Effects
import Foundation

/// A note of the notes app.
public struct Note: Codable, Equatable, Sendable {
  public var id: Int
  public var text: String

  public init(id: Int, text: String) {
    self.id = id
    self.text = text
  }
}

/// What the notes server answered, when it was not a success.
public enum NotesError: Error, Equatable {
  case status(Int)
}

/// The notes server, reached through the environment's network: a list of notes, and a note saved
/// by its id.
public struct NotesAPI: Sendable {
  public static let base = "https://notes.example.com/notes"

  private let environment: Environment

  public init(environment: Environment = .current) {
    self.environment = environment
  }

  /// Every note, from `GET /notes`.
  public func list() async throws -> [Note] {
    let response = try await environment.network.send(.get(Self.base))
    guard response.isSuccess else { throw NotesError.status(response.status) }
    return try response.decode([Note].self)
  }

  /// Saves `note` with `PUT /notes/<id>`, its JSON as the body.
  public func save(_ note: Note) async throws {
    let response = try await environment.network.send(Self.saveRequest(note))
    guard response.isSuccess else { throw NotesError.status(response.status) }
  }

  /// The request that saves `note`: what a test stubs and expects.
  public static func saveRequest(_ note: Note) -> NetworkRequest {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let body = (try? encoder.encode(note)) ?? Data()
    return .put("\(base)/\(note.id)", headers: ["Content-Type": "application/json"], body: body)
  }
}
