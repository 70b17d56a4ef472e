// Context for Sources/EffectsTestSupport/Documentation.docc/Articles/TestingAFeature.md: the
// features its blocks test, which the article names but does not show — the Profile and Login
// examples (Examples/Sources/Profile, Examples/Sources/Login, shortened) and a ticker. The article
// itself shows `ProfileInteractor` and `LoginInteractor.effects(environment:)`.
import Effects
import EffectsTestSupport
import Foundation

// MARK: Profile

public struct User: Identifiable, Hashable, Sendable {
  public var id: String
  public var name: String
  public var location: String
}

public struct ProfileError: Error, Hashable, Sendable {
  public var message: String
  public init(message: String) { self.message = message }
  public init(_ error: any Error) {
    self = error as? ProfileError ?? ProfileError(message: String(describing: error))
  }
}

public enum ProfileState: Hashable, Sendable {
  case initialized, loading, loaded(User), failed(ProfileError)
}

public enum ProfileCommand: Hashable, Sendable {
  case load, retry, fetched(User), fetchFailed(ProfileError)
}

public enum ProfileEffect: Hashable, Sendable {
  case fetchProfile(userID: User.ID, after: Duration = .zero)
}

public struct ProfileReducer: Hashable, Sendable {
  public var userID: User.ID
  public var retryBackoff: Duration

  public init(userID: User.ID, retryBackoff: Duration = .seconds(2)) {
    self.userID = userID
    self.retryBackoff = retryBackoff
  }

  public func reduce(_ state: ProfileState, _ command: ProfileCommand) -> Outcome<ProfileState, ProfileEffect> {
    switch (state, command) {
    case (.initialized, .load): Outcome(value: .loading, effects: [.fetchProfile(userID: userID)])
    case (.loading, .fetched(let user)): .pure(.loaded(user))
    case (.loading, .fetchFailed(let error)): .pure(.failed(error))
    case (.failed, .retry): Outcome(value: .loading, effects: [.fetchProfile(userID: userID, after: retryBackoff)])
    default: .pure(state)
    }
  }
}

public protocol ProfileService: Sendable {
  nonisolated(nonsending) func fetchUser(id: User.ID) async throws -> User
}

extension User {
  static let blob = User(id: "42", name: "Blob", location: "Chicago")
}

extension ProfileError {
  static let offline = ProfileError(message: "You're offline")
}

/// The service, faked: a spy records each request, and its answer comes back `latency` later in
/// virtual time.
struct ProfileServiceDouble: ProfileService {
  let fetches = Spy<User.ID, User>("service.fetchUser")
  let latency: Duration
  let scheduler: TestScheduler

  init(latency: Duration = .zero, scheduler: TestScheduler) {
    self.latency = latency
    self.scheduler = scheduler
  }

  nonisolated(nonsending) func fetchUser(id: User.ID) async throws -> User {
    let answer = Result { try fetches(id) }
    try await scheduler.sleep(for: latency)
    return try answer.get()
  }
}

// MARK: Login

public struct Credentials: Hashable, Sendable {
  public var email: String
  public var password: String

  static let blob = Credentials(email: "blob@example.com", password: "secret")
}

public struct LoginState: Hashable, Sendable {
  public var email = ""
  public var password = ""
  public var isLoggingIn = false
  public var validationMessage: String?
  public var isLoggedIn = false
}

public struct LoginFailure: Error, Hashable, Sendable {
  public var message: String
}

public enum LoginAction: Hashable, Sendable {
  case emailChanged(String)
  case submit
  case loginResponse(Result<String, LoginFailure>)
}

public enum LoginEffect: Hashable, Sendable {
  case logIn(Credentials, timeout: Duration)
  case storeToken(sessionToken: String)

  /// A new login supersedes the one in flight; other effects run side by side.
  public var cancelID: AnyHashable? {
    switch self {
    case .logIn: "logIn"
    case .storeToken: nil
    }
  }
}

public struct LoginReducer: Hashable, Sendable {
  public var timeout: Duration

  public func reduce(_ state: LoginState, _ action: LoginAction) -> Outcome<LoginState, LoginEffect> {
    var state = state
    switch action {
    case .emailChanged(let email):
      state.email = email
      return .pure(state)
    case .submit:
      state.isLoggingIn = true
      return Outcome(
        value: state,
        effects: [.logIn(Credentials(email: state.email, password: state.password), timeout: timeout)]
      )
    case .loginResponse(let response):
      guard state.isLoggingIn else { return .pure(state) }
      state.isLoggingIn = false
      let body = (try? response.get()).map { Data($0.utf8) } ?? Data()
      guard let token = try? JSONDecoder().decode([String: String].self, from: body)["session_token"] else {
        state.validationMessage = (try? response.get()) ?? "The login failed"
        return .pure(state)
      }
      state.isLoggedIn = true
      state.password = ""
      return Outcome(value: state, effects: [.storeToken(sessionToken: token)])
    }
  }
}

@MainActor public final class LoginInteractor {
  /// Performs one effect against `environment`: the login over its network, raced against
  /// `timeout` on its clock; the token into its defaults.
  public static func perform(
    _ effect: LoginEffect,
    environment: Environment,
    send: @MainActor (LoginAction) -> Void
  ) async {
    switch effect {
    case .logIn(let credentials, let timeout):
      do {
        let body = try await withThrowingTaskGroup(of: String.self) { group in
          group.addTask {
            let response = try await environment.network.send(.logIn(credentials))
            return String(decoding: response.body, as: UTF8.self)
          }
          group.addTask {
            try await environment.continuousClock.sleep(for: timeout)
            throw LoginFailure(message: "The login timed out")
          }
          defer { group.cancelAll() }
          guard let body = try await group.next() else { throw CancellationError() }
          return body
        }
        send(.loginResponse(.success(body)))
      } catch is CancellationError {
      } catch {
        send(.loginResponse(.failure(error as? LoginFailure ?? LoginFailure(message: "\(error)"))))
      }
    case .storeToken(let token):
      environment.defaults.set(.string(token), for: "sessionToken")
    }
  }
}

extension NetworkRequest {
  /// The request a login with `credentials` sends.
  static func logIn(_ credentials: Credentials) -> NetworkRequest {
    .post(
      "https://api.example.com/login",
      body: Data(#"{"email":"\#(credentials.email)","password":"\#(credentials.password)"}"#.utf8)
    )
  }
}

// MARK: Ticker

/// Counts ticks: `.start(ticks:)` asks for that many, one a second.
enum TickerAction: Equatable, Sendable {
  case start(ticks: Int)
  case tick
}

enum TickerEffect: Equatable, Sendable {
  case ticks(Int, every: Duration)
}

struct TickerReducer {
  func reduce(_ count: Int, _ action: TickerAction) -> Outcome<Int, TickerEffect> {
    switch action {
    case .start(let ticks): Outcome(value: count, effects: [.ticks(ticks, every: .seconds(1))])
    case .tick: .pure(count + 1)
    }
  }
}

enum TickerInteractor {
  @MainActor static func perform(
    _ effect: TickerEffect,
    environment: Environment,
    send: @MainActor (TickerAction) -> Void
  ) async {
    switch effect {
    case .ticks(let count, let interval):
      for _ in 0..<count {
        do { try await environment.continuousClock.sleep(for: interval) } catch { return }
        send(.tick)
      }
    }
  }
}
