import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

const numeric = {
  to: (value: number) => value,
  from: (value: string | null) => (value === null ? 0 : Number(value)),
};

@Entity('users')
export class UserOrmEntity {
  @PrimaryGeneratedColumn('identity', { generatedIdentity: 'BY DEFAULT' })
  id: number;

  @Column('text')
  email: string;

  @Column('text', { nullable: true })
  username: string | null;

  @Column('text', { name: 'full_name' })
  fullName: string;

  @Column('text', { name: 'password_hash', nullable: true })
  passwordHash: string | null;

  @Column('timestamptz', { name: 'email_verified_at', nullable: true })
  emailVerifiedAt: Date | null;

  @Column('boolean', { name: 'is_admin' })
  isAdmin: boolean;

  @Column('text', { name: 'phone_number', nullable: true })
  phoneNumber: string | null;

  @Column('boolean', { name: 'tfa_enabled' })
  tfaEnabled: boolean;

  @Column('text', { name: 'tfa_status' })
  tfaStatus: string;

  @Column('numeric', { transformer: numeric })
  credit: number;

  @Column('numeric', { transformer: numeric })
  balance: number;

  @Column('timestamptz', { name: 'sms_fraud_flagged_at', nullable: true })
  smsFraudFlaggedAt: Date | null;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' })
  updatedAt: Date;
}
