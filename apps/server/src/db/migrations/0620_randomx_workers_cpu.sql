-- Workers were created as 'asic' whatever their algorithm; RandomX (XMR) is mined on CPUs.
-- New workers take the hardware of their algorithm's port row (WorkersRepository.ensure).
UPDATE workers SET type = 'cpu' WHERE coin = 'XMR' AND type = 'asic';
