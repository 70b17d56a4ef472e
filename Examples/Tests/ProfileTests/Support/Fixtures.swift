import Profile

/// The seed's `Mocks`: one user and one error, shared by every test.
extension User {
  static let blob = User(id: "42", name: "Blob", location: "Chicago")
}

extension ProfileError {
  static let offline = ProfileError(message: "You're offline")
}
