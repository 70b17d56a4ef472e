import Testing

// Exit tests exist on macOS, Linux and Windows only: unguarded, iOS, tvOS and watchOS reject them.
@Test func unguardedExitTest() async {
  await #expect(processExitsWith: .success) {}  // [U-exit]
}
