import Testing

@testable import Lib

// Exit tests exist on macOS, Linux and Windows only: this one is compiled for those alone.
#if os(macOS) || os(Linux) || os(Windows)
@Test func guardedExitTest() async {
  await #expect(processExitsWith: .failure) { fatalError() }  // [G-exit-if-os]
}
#endif

@Test func callsLib() {
  #expect(wrappingProduct(2, 3) == 6)
}
