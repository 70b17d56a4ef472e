import Effects
import Foundation

/// A file reader that logs each read as `fileReader.contents` with its path, then reads from `base`.
struct RecordingFileReader: FileReader {
  let base: any FileReader
  let log: CallLog

  func contents(atPath path: String) throws -> Data {
    log.record("fileReader.contents", path)
    return try base.contents(atPath: path)
  }
}
