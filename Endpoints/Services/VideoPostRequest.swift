import Courier
import Foundation

/// Publishing a video post: upload the file, get its download
/// URL, put it on the post, save the post.
///
/// The post is saved only after its video is stored, and it is saved with an
/// `Idempotency-Key` derived from `post.id`, so calling `publishPost` again after a
/// failure (or a lost reply) never saves it twice.
public struct VideoPostRequest: Sendable {
    /// The client calls go through.
    public let client: SocialClient

    /// Creates the service.
    public init(client: SocialClient) { self.client = client }

    /// The message a success callback receives.
    public static let successMessage = "Successfully published your video to database"

    /// Publishes `post` with the video at `videoURL` and returns the saved post.
    ///
    /// - Parameters:
    ///   - post: the metadata; `video` is the storage name, `id` keys idempotency.
    ///   - videoURL: the local file, streamed from disk.
    ///   - progress: upload progress of the video.
    /// - Throws: `SocialError`: `storage` when the upload fails (nothing is saved then).
    public func publishPost(
        post: Post, videoURL: URL, progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(SocialError) -> Post {
        let downloadURL = try await uploadVideo(name: post.video, file: videoURL, progress: progress)
        return try await save(post: post, videoURL: downloadURL)
    }

    /// Steps 1 and 2: stores the file as `Videos/{name}` and returns its download URL.
    /// Safe to repeat: storing the same name again replaces the file.
    /// - Throws: `SocialError` (`storage` when the file cannot be read or uploaded).
    public func uploadVideo(
        name: String, file: URL, progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(SocialError) -> URL {
        guard FileManager.default.isReadableFile(atPath: file.path) else {
            throw SocialError(.storage, "cannot read the video at \(file.path)")
        }
        _ = try await client.call(
            UploadEndPoint.video(name: name, file: file), storage: true,
            progress: progress)
        return try await client.call(UploadEndPoint.videoURL(name: name), storage: true)
            .url
    }

    /// Steps 3 and 4: puts the download URL on the post and saves it, once per `post.id`
    /// however often this is retried (the key is `publish-{post.id}`).
    /// - Throws: `SocialError` (`notFound` when the video is not stored).
    public func save(post: Post, videoURL: URL) async throws(SocialError) -> Post {
        let metadata = NewPost(video: post.video, videoURL: videoURL, description: post.description)
        return try await client.call(
            UploadEndPoint.publish(post: metadata, idempotencyKey: "publish-\(post.id)"))
    }

    /// Publishes `post` and calls `success` with the saved post or `failure`, on the
    /// manager's callback queue.
    @discardableResult
    public func publishPost(
        post: Post, videoURL: URL, progress: (@Sendable (TransferProgress) -> Void)? = nil,
        success: @escaping @Sendable (Post) -> Void, failure: @escaping @Sendable (SocialError) -> Void
    ) -> Task<Void, Never> {
        client.deliver(
            { try await publishPost(post: post, videoURL: videoURL, progress: progress) }, success: success,
            failure: failure)
    }
}
