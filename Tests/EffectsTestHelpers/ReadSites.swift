/// Whether an issue about a co-effect read is placed at the line that read it: test support finds
/// it from the stack on Linux; elsewhere it falls back to where the environment was made, or to
/// the test.
package let readSitesAreFound: Bool = {
  #if os(Linux)
  true
  #else
  false
  #endif
}()
