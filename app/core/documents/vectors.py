"""Embedding vectors beside the chunks: float32 BLOBs in SQLite, searched exactly with NumPy.

Exact search is one matrix-vector product over the collection's unit vectors: 10,000
vectors of 768 floats are 30 MB and a few milliseconds, and it is never wrong, unlike an
approximate index. (SQLite extensions such as sqlite-vec cannot be loaded by the Python
builds Glassbox runs on, so the search happens here.)
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

Vector = npt.NDArray[np.float32]
Matrix = npt.NDArray[np.float32]


def unit(vector: npt.ArrayLike) -> Vector:
    """The vector scaled to length 1 (a zero vector stays zero), as float32."""
    array = np.asarray(vector, dtype=np.float32).reshape(-1)
    norm = float(np.linalg.norm(array))
    return array / norm if norm > 0 else array


def to_blob(vector: npt.ArrayLike) -> bytes:
    return np.asarray(vector, dtype="<f4").tobytes()


def from_blob(blob: bytes) -> Vector:
    return np.frombuffer(blob, dtype="<f4").astype(np.float32)


@dataclass(frozen=True)
class VectorHit:
    chunk_id: int
    similarity: float  # cosine similarity, -1 … 1


class VectorSet:
    """Unit vectors with their chunk ids, searched by cosine similarity."""

    def __init__(self, keys: Sequence[int] | npt.NDArray[np.int64], matrix: Matrix, *, unit_rows: bool = False) -> None:
        """`unit_rows`: the rows are already of length 1 (they come from another VectorSet)."""
        if matrix.ndim != 2 or len(keys) != matrix.shape[0]:
            raise ValueError(f"{len(keys)} keys for a matrix of shape {matrix.shape}")
        self.keys = np.asarray(keys, dtype=np.int64)
        if unit_rows:
            self.matrix = matrix.astype(np.float32, copy=False)
        else:
            norms = np.linalg.norm(matrix, axis=1, keepdims=True)
            self.matrix = np.divide(matrix, norms, out=np.zeros_like(matrix), where=norms > 0).astype(np.float32)

    @classmethod
    def from_blobs(cls, rows: Sequence[tuple[int, bytes]], dim: int) -> VectorSet:
        """From (chunk id, blob) rows; rows of another length (another model) are left out."""
        kept = [(key, blob) for key, blob in rows if len(blob) == dim * 4]
        matrix = np.frombuffer(b"".join(blob for _key, blob in kept), dtype="<f4").reshape(len(kept), dim)
        return cls([key for key, _blob in kept], matrix.astype(np.float32))

    def keeping(self, keys: Collection[int]) -> VectorSet:
        """The vectors whose keys are among `keys`."""
        mask = np.isin(self.keys, np.fromiter(keys, dtype=np.int64, count=len(keys)))
        return VectorSet(self.keys[mask], self.matrix[mask], unit_rows=True)

    def joined(self, other: VectorSet) -> VectorSet:
        """These vectors and the other set's (of the same dimensions)."""
        if not len(other):
            return self
        if not len(self):
            return other
        return VectorSet(
            np.concatenate([self.keys, other.keys]), np.concatenate([self.matrix, other.matrix]), unit_rows=True
        )

    def __len__(self) -> int:
        return int(self.keys.shape[0])

    @property
    def dim(self) -> int:
        return int(self.matrix.shape[1])

    def search(self, query: npt.ArrayLike, limit: int) -> list[VectorHit]:
        """The `limit` most similar vectors, the most similar first (ties: the lower id first)."""
        if not len(self) or limit <= 0:
            return []
        vector = unit(query)
        if vector.shape[0] != self.dim:
            raise ValueError(f"a query of {vector.shape[0]} dimensions for vectors of {self.dim}")
        scores = self.matrix @ vector
        count = min(limit, len(self))
        top = np.argpartition(-scores, count - 1)[:count] if count < len(self) else np.arange(len(self))
        order = top[np.lexsort((self.keys[top], -scores[top]))]
        return [VectorHit(int(self.keys[i]), float(scores[i])) for i in order]
