//! Ranks that are MPI processes ([`Mpi`], the build with `--features mpi`, launched with
//! `mpirun`): the exchanges of [`Comm`] as MPI's all-to-all of counts and then of bytes.

use super::collective::Comm;
use mpi::datatype::{Partition, PartitionMut};
use mpi::topology::SimpleCommunicator;
use mpi::traits::{Communicator, CommunicatorCollectives};
use mpi::Count;

/// This process's handle on the processes `mpirun` started (`MPI_COMM_WORLD`). MPI is set up
/// by [`Mpi::start`] (at the thread level `MPI_THREAD_MULTIPLE`, so that the handle may be
/// shared between threads) and finished when the handle is dropped.
pub struct Mpi {
    _universe: mpi::environment::Universe,
}

impl Mpi {
    /// Sets MPI up, once per process; None when it was set up already or cannot be.
    pub fn start() -> Option<Mpi> {
        let (universe, _) = mpi::initialize_with_threading(mpi::Threading::Multiple)?;
        Some(Mpi {
            _universe: universe,
        })
    }

    /// `MPI_COMM_WORLD` (a predefined handle: made here, never freed).
    fn world(&self) -> SimpleCommunicator {
        SimpleCommunicator::world()
    }
}

impl Comm for Mpi {
    fn rank(&self) -> usize {
        self.world().rank() as usize
    }

    fn size(&self) -> usize {
        self.world().size() as usize
    }

    fn exchange(&self, out: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
        let size = self.size();
        assert_eq!(out.len(), size, "one buffer per rank");
        let counts: Vec<Count> = out.iter().map(|b| count(b.len())).collect();
        let mut came: Vec<Count> = vec![0; size];
        self.world().all_to_all_into(&counts[..], &mut came[..]);
        let starts = |c: &[Count]| -> Vec<Count> {
            c.iter()
                .scan(0, |at, &n| {
                    let here = *at;
                    *at += n;
                    Some(here)
                })
                .collect()
        };
        let (send_at, recv_at) = (starts(&counts), starts(&came));
        // (one byte more than sent or received: OpenMPI refuses the dangling pointer of an
        // empty buffer with MPI_ERR_ARG, even when every count is zero)
        let mut flat: Vec<u8> = out.concat();
        flat.push(0);
        let total: usize = came.iter().map(|&n| n as usize).sum();
        let mut got = vec![0u8; total + 1];
        {
            let send = Partition::new(&flat[..], &counts[..], &send_at[..]);
            let mut recv = PartitionMut::new(&mut got[..], &came[..], &recv_at[..]);
            self.world().all_to_all_varcount_into(&send, &mut recv);
        }
        (0..size)
            .map(|r| {
                let at = recv_at[r] as usize;
                got[at..at + came[r] as usize].to_vec()
            })
            .collect()
    }
}

/// A buffer's length as MPI counts it (an `int`): a rank sends less than 2 GiB to another in
/// one exchange (about 20 million balls' worth of ghosts).
fn count(len: usize) -> Count {
    Count::try_from(len).unwrap_or_else(|_| {
        panic!("{len} bytes for one rank in one exchange: MPI counts at most 2^31 - 1")
    })
}
