import AsyncAlgorithms

/// Uploads photos one at a time through an `AsyncChannel` (swift-async-algorithms): adding a photo
/// waits until the uploader takes it (back-pressure), and each upload takes as long as `upload`.
///
/// ```swift
/// let queue = UploadQueue(upload: { photo in try await api.upload(photo) })
/// queue.start()
/// await queue.add("beach.jpg")   // returns once the uploader has taken it
/// ```
@MainActor public final class UploadQueue {
  /// Photos whose upload finished, in order.
  public private(set) var uploaded: [String] = []
  /// The photo being uploaded, if any.
  public private(set) var uploading: String?

  private let channel = AsyncChannel<String>()
  private let upload: @Sendable (String) async -> Void
  private var task: Task<Void, Never>?

  /// A queue that uploads with `upload`.
  public init(upload: @escaping @Sendable (String) async -> Void) {
    self.upload = upload
  }

  /// Starts the uploader.
  public func start() {
    let (channel, upload) = (self.channel, self.upload)
    task = Task { [weak self] in
      for await photo in channel {
        self?.uploading = photo
        await upload(photo)
        self?.uploading = nil
        self?.uploaded.append(photo)
      }
    }
  }

  /// Adds a photo; returns once the uploader has taken it.
  public func add(_ photo: String) async {
    await channel.send(photo)
  }

  /// Stops the uploader.
  public func stop() {
    channel.finish()
    task?.cancel()
  }
}
